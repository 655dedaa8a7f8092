package site

// uiStrings are the page furniture of each language: headings and labels
// the templates print around the content. A key a language lacks falls
// back to English, and an unknown key is shown as itself so a missing
// string is visible rather than blank.
var uiStrings = map[string]map[string]string{
	"en": {
		"applies":      "Applies to",
		"adapters":     "Adapters",
		"drivers":      "Drivers",
		"distros":      "Distributions",
		"stacks":       "Driver stacks",
		"tags":         "Tags",
		"language":     "Language",
		"last_checked": "Last verified",
		"checks":       "Engine checks explained here",
		"glossary":     "Glossary",
		"sources":      "Sources",
		"retrieved":    "retrieved",
		"faq":          "FAQ",
		"trees":        "Troubleshooting trees",
		"all_tags":     "All tags",
		"tagged":       "Pages tagged",
		"pages":        "pages",
		"overview":     "Overview",
		"start":        "Start here",
		"yes":          "Yes",
		"no":           "No",
		"cause":        "Cause",
		"fix":          "Fix",
		"look_for":     "Look for",
		"see":          "See",
		"see_above":    "already asked above: go to",
	},
	"zh": {
		"applies":      "适用范围",
		"adapters":     "适配器",
		"drivers":      "驱动",
		"distros":      "发行版",
		"stacks":       "驱动栈",
		"tags":         "标签",
		"language":     "语言",
		"last_checked": "最后核实",
		"checks":       "本页解释的引擎检查",
		"glossary":     "术语表",
		"sources":      "来源",
		"retrieved":    "获取于",
		"faq":          "常见问题",
		"trees":        "排障流程",
		"all_tags":     "全部标签",
		"tagged":       "标签",
		"pages":        "页",
		"overview":     "概览",
		"start":        "从这里开始",
		"yes":          "是",
		"no":           "否",
		"cause":        "原因",
		"fix":          "解决办法",
		"look_for":     "查看",
		"see":          "参见",
		"see_above":    "上文已问过：转到",
	},
}

// langNames name each language in itself, for the language switch.
var langNames = map[string]string{"en": "English", "zh": "中文"}

// ui returns the furniture string key in lang.
func ui(lang, key string) string {
	if s, ok := uiStrings[lang][key]; ok {
		return s
	}
	if s, ok := uiStrings["en"][key]; ok {
		return s
	}
	return key
}

// UI returns a furniture string in the page's language: {{$.UI "sources"}}.
func (m *Meta) UI(key string) string { return ui(m.Lang, key) }

// LangName names a language in itself ("中文"), or returns the code.
func LangName(lang string) string {
	if n, ok := langNames[lang]; ok {
		return n
	}
	return lang
}
