package search

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/rocekb/rocekb/internal/ibverbs"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/mst"
	"github.com/rocekb/rocekb/internal/need"
)

// A pasted log line is read in two steps that both engines share:
//
//   - Normalize drops what says where and when a line was logged, not
//     what it says: the syslog or journal header (time, host, facility,
//     process id). The analyzer then drops the other varying tokens
//     (dmesg timestamps, PCI addresses, MACs, GIDs, pointers: see
//     noisePattern), and the index's tf-idf weighs what is left by
//     rarity, so function, event, module and error names decide.
//   - Templates match the messages the project knows; a line that
//     matches one has its explaining page ranked first and the result
//     says what the line means.
//
// The patterns are plain syntax that Go's regexp and JavaScript read
// alike; the static index ships them in its manifest.

// headerPattern matches what a log line carries before its message: a
// syslog or journal header ("Jan  2 03:04:05 host kernel: ",
// "2024-05-01T10:00:00+02:00 host kernel: ", "<4>Jan 2 03:04:05 host
// NetworkManager[812]: ") and a dmesg time stamp ("[  12.345678] ",
// "[Mon Jan  2 03:04:05 2024] "), either or both.
const headerPattern = `^[ \t]*(?:<\d{1,3}>)?` +
	`(?:(?:[A-Z][a-z]{2} +\d{1,2} +\d\d:\d\d:\d\d|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)[ \t]+[\w.-]+[ \t]+(?:kernel:|[\w./@-]+\[\d+\]:|[\w./@-]+:)[ \t]*)?` +
	`(?:\[[ \t]*\d+\.\d+\][ \t]*|\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\][ \t]*)?`

var headerRe = regexp.MustCompile("(?m)" + headerPattern)

// partIDPattern matches ibv_devinfo's vendor_part_id field, the adapter's
// PCI device id printed in decimal, and vendorIDPattern its vendor_id
// field (ibverbs.PCIVendors reads it as a PCI vendor: Mellanox's IEEE OUI
// 0x02c9 is 15b3). Plain syntax shared with JavaScript (search.js
// normalize, which reads the table from the manifest).
const (
	partIDPattern   = `\bvendor_part_id:[ \t]*(\d{1,5})\b`
	vendorIDPattern = `\bvendor_id:[ \t]*(0x[0-9a-f]{4})\b`
)

var (
	partIDRe   = regexp.MustCompile("(?i)" + partIDPattern)
	vendorIDRe = regexp.MustCompile("(?i)" + vendorIDPattern)
)

var mstNodeRe = regexp.MustCompile("(?i)" + mst.NodePattern)

// windowsIDPattern finds a PCI id as Windows prints it in text (Device
// Manager's hardware ids, PnP instance ids: PCI\VEN_15B3&DEV_1017&
// SUBSYS_001615B3&REV_00), matrix.WindowsPCIID at a word's start.
const windowsIDPattern = `\b` + matrix.WindowsPCIID

var windowsIDRe = regexp.MustCompile(windowsIDPattern)

// windowsIDs adds after each PCI id written the Windows way the
// vendor:device (and subsystem vendor:device) pages carry.
func windowsIDs(q string) string {
	return windowsIDRe.ReplaceAllStringFunc(q, func(m string) string {
		g := windowsIDRe.FindStringSubmatch(m)
		id := strings.ToLower(g[1] + ":" + g[2])
		if g[3] != "" {
			id += " " + strings.ToLower(g[4]+":"+g[3])
		}
		return m + " " + id
	})
}

// Normalize removes the log headers and time stamps of every line of a
// query, and adds the hex PCI id adapter pages carry after each device id
// a tool printed in decimal: ibv_devinfo's vendor_part_id (vendor:device
// when the query's vendor_id names a PCI vendor, "vendor_id: 0x02c9 …
// vendor_part_id: 4125" being 15b3:101d, else the device alone) and an MST
// device node (mt4119_pciconf0 is 15b3:1017); and the vendor:device after
// a PCI id written the Windows way (VEN_1077&DEV_8070 is 1077:8070).
func Normalize(q string) string {
	if strings.ContainsAny(q, ":]") {
		q = headerRe.ReplaceAllString(q, "")
	}
	low := strings.ToLower(q)
	if strings.Contains(low, "ven_") {
		q = windowsIDs(q)
	}
	if !strings.Contains(low, "vendor_part_id") && !strings.Contains(low, "_pci") {
		return q
	}
	vendor := ""
	if m := vendorIDRe.FindStringSubmatch(q); m != nil {
		if v := ibverbs.PCIVendors[strings.ToLower(m[1])]; v != "" {
			vendor = v + ":"
		}
	}
	q = partIDRe.ReplaceAllStringFunc(q, func(m string) string {
		if dev := ibverbs.PCIDevice(partIDRe.FindStringSubmatch(m)[1]); dev != "" {
			return m + " " + vendor + dev
		}
		return m
	})
	return mstNodeRe.ReplaceAllStringFunc(q, func(m string) string {
		if id := mst.PCIID(strings.ToLower(m)); id != "" {
			return m + " " + id
		}
		return m
	})
}

// Template is a known message: a pattern, the page that explains it and
// what it means. Kind, when set, is the kernel-log classifier kind
// (internal/dmesg) the pattern stands for in the search: every line the
// classifier puts in that kind must match a template of it
// (TestTemplatesCoverClassifier).
type Template struct {
	ID    string `toml:"id"`
	Match string `toml:"match"` // case-insensitive; Go and JavaScript syntax alike
	Page  string `toml:"page"`  // site-relative URL of the explaining page
	Means string `toml:"means"` // what a matching line means, one sentence
	Kind  string `toml:"kind"`
	// Example is a line the template must match, from a public report.
	Example string `toml:"example"`
	re      *regexp.Regexp
	need    need.Set // literals one of which a matching line holds
}

//go:embed templates.toml
var templatesTOML string

// Templates are the known message templates, in table order (the first
// that matches a query explains it first). They are parsed and compiled
// on first use, not when a process starts: most kbgen runs never search.
var Templates = sync.OnceValue(func() []Template { return mustTemplates(templatesTOML) })

func mustTemplates(src string) []Template {
	ts, err := parseTemplates(src)
	if err != nil {
		panic(err)
	}
	return ts
}

// jsUnsafe are constructs one of the two regexp dialects reads otherwise.
var jsUnsafe = regexp.MustCompile(`\(\?[a-zA-Z]|\\[AzZpPQE]|\(\?P<|\[\[:`)

func parseTemplates(src string) ([]Template, error) {
	var f struct {
		Template []Template `toml:"template"`
	}
	md, err := toml.Decode(src, &f)
	if err != nil {
		return nil, fmt.Errorf("templates.toml: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("templates.toml: unknown key %s", und[0])
	}
	seen := map[string]bool{}
	for i := range f.Template {
		t := &f.Template[i]
		switch {
		case t.ID == "" || t.Match == "" || t.Page == "" || t.Means == "":
			return nil, fmt.Errorf("templates.toml: template %d (%q): id, match, page and means are required", i+1, t.ID)
		case seen[t.ID]:
			return nil, fmt.Errorf("templates.toml: template %q twice", t.ID)
		case jsUnsafe.MatchString(t.Match):
			return nil, fmt.Errorf("templates.toml: template %q: %q is read otherwise by JavaScript", t.ID, jsUnsafe.FindString(t.Match))
		}
		seen[t.ID] = true
		re, err := regexp.Compile("(?i)" + t.Match)
		if err != nil {
			return nil, fmt.Errorf("templates.toml: template %q: %v", t.ID, err)
		}
		t.re, t.need = re, need.Of("(?i)"+t.Match)
	}
	return f.Template, nil
}

// Explanation says what a query line means and which page explains it.
type Explanation struct {
	Template string `json:"template"`
	URL      string `json:"url"`
	Means    string `json:"means"`
}

// localizedURL is the URL of a page's version in language lang:
// faq/softroce.html → faq/softroce.zh.html.
func localizedURL(u, lang string) string {
	if strings.Contains(u, "#") || !strings.HasSuffix(u, ".html") {
		return ""
	}
	return strings.TrimSuffix(u, ".html") + "." + lang + ".html"
}

// explain returns, for each line of a query, the first template in table
// order that matches it and whose page is indexed and passes the filters
// (has returns its doc number); one per page. A query in CJK script is
// explained by the page's version in a CJK language when there is one.
func explain(q string, cjk bool, has func(url string) (int, bool)) ([]Explanation, []int) {
	var out []Explanation
	var docs []int
	seen := map[string]bool{}
	for _, line := range strings.Split(q, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		ts := Templates()
		lower, ascii := strings.ToLower(line), need.ASCII(line)
		for i := range ts {
			t := &ts[i]
			if !t.need.MayMatch(lower, ascii) || !t.re.MatchString(line) {
				continue
			}
			u := t.Page
			d, ok := has(u)
			if cjk {
				for _, l := range cjkLangList() {
					if ld, lok := has(localizedURL(t.Page, l)); lok {
						u, d, ok = localizedURL(t.Page, l), ld, true
						break
					}
				}
			}
			if !ok {
				continue
			}
			if !seen[u] {
				seen[u] = true
				out = append(out, Explanation{Template: t.ID, URL: u, Means: t.Means})
				docs = append(docs, d)
			}
			break
		}
	}
	return out, docs
}
