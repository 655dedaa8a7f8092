package content

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/page"
)

// page builds a FAQ file from front matter lines and a body.
func mdPage(front, body string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("+++\n" + front + "+++\n" + body)}
}

const goodFront = `title = "T"
summary = "S"
sources = ["src-a"]
last_verified = 2026-11-30
lang = "en"
`

const goodTree = `id = "t"
title = "T"
summary = "S"
start = "q"
sources = ["src-a"]

[[node]]
id = "q"
question = "Q?"
how = "cmd"
look_for = "x"
check = "no-active-port"
yes = "a"
no = "b"

[[node]]
id = "a"
cause = "C"
fix = "F"
links = ["faq/p"]

[[node]]
id = "b"
cause = "C"
fix = "F"
links = ["glossary/gid"]
`

const goodGlossary = `[[term]]
id = "gid"
term = "GID"
definition = "D"
sources = ["src-a"]
`

func refs() *Refs {
	return &Refs{
		Adapters: map[string]bool{"connectx-5": true},
		Drivers:  map[string]bool{"mlx5_ib": true},
		Distros:  map[string]bool{"rhel-9.4": true},
		Stacks:   map[string]bool{"mlnx-ofed": true},
		Vendors:  map[string]bool{"nvidia": true},
		Sources:  map[string]bool{"src-a": true, "src-b": true},
	}
}

// lintFS loads and lints fsys, failing on load problems.
func lintFS(t *testing.T, fsys fstest.MapFS) []string {
	t.Helper()
	c, probs := Load(fsys, "content")
	if probs.Errors() > 0 {
		t.Fatalf("load: %s", probs)
	}
	var out []string
	for _, p := range Lint(c, LintOptions{Refs: refs(), Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), StaleAfter: 365 * 24 * time.Hour}) {
		out = append(out, p.String())
	}
	return out
}

func base() fstest.MapFS {
	return fstest.MapFS{
		"faq/p.md":      mdPage(goodFront, "Body [src-a].\n"),
		"trees/t.toml":  {Data: []byte(goodTree)},
		"glossary.toml": {Data: []byte(goodGlossary)},
	}
}

func TestLintClean(t *testing.T) {
	t.Parallel()
	if got := lintFS(t, base()); len(got) != 0 {
		t.Fatalf("clean content has problems:\n%s", strings.Join(got, "\n"))
	}
}

// TestLinksToEverySitesPages links to every single page that every site
// has (page.Spec.Always), read from page.Table, so a kind added there is
// linkable from content at once, and to the page of a tag the content
// has; a link to a page only a site with host records has says so, and
// one to a tag no page has is broken.
func TestLinksToEverySitesPages(t *testing.T) {
	t.Parallel()
	var body strings.Builder
	for _, s := range page.Table {
		if s.Always() {
			fmt.Fprintf(&body, "[%s](kb:%s)\n", s.Kind, s.Kind)
		}
	}
	fsys := base()
	body.WriteString("[t](kb:tag/roce-v2)\n")
	fsys["faq/p.md"] = mdPage(goodFront+"tags = [\"RoCE v2\"]\n", body.String()+"[f](kb:fleet) [x](kb:tag/nope) [src-a].\n")
	got := lintFS(t, fsys)
	line := fmt.Sprint(9 + strings.Count(body.String(), "\n"))
	want := []string{
		`content/faq/p.md:` + line + `:1: broken link "kb:fleet": only a site built with host records has the fleet page`,
		`content/faq/p.md:` + line + `:15: broken link "kb:tag/nope": no such tag`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLinksToMatrixPages: a link to the page of any kind whose pages are
// the matrix's entries resolves when the matrix has the id, and is broken
// when it does not. A kb:distro/ link was once broken whatever its id.
func TestLinksToMatrixPages(t *testing.T) {
	t.Parallel()
	known := map[page.Kind]string{page.Adapter: "connectx-5", page.Driver: "mlx5_ib", page.Distro: "rhel-9.4", page.Stack: "mlnx-ofed", page.Vendor: "nvidia"}
	c, _ := Load(base(), "content")
	var body strings.Builder
	var want []string
	for _, s := range page.Table {
		if s.Dir == "" || s.Kind == page.Host { // host pages are not the matrix's
			continue
		}
		if _, decided := c.Has(page.Ref{Kind: s.Kind, ID: "x"}); decided {
			continue // content's own kinds: TestLinksToEverySitesPages
		}
		line := 9 + strings.Count(body.String(), "\n")
		fmt.Fprintf(&body, "[a](kb:%s/%s) [b](kb:%s/nope)\n", s.Kind, known[s.Kind], s.Kind)
		col := len(fmt.Sprintf("[a](kb:%s/%s) ", s.Kind, known[s.Kind])) + 1
		want = append(want, fmt.Sprintf(`content/faq/p.md:%d:%d: broken link "kb:%s/nope": no such %s`, line, col, s.Kind, s.Kind))
	}
	if len(want) < len(known) {
		t.Fatalf("only %d of the matrix's %d kinds are in page.Table", len(want), len(known))
	}
	fsys := base()
	fsys["faq/p.md"] = mdPage(goodFront, "Body [src-a].\n"+body.String())
	got := lintFS(t, fsys)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLintRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(fstest.MapFS)
		want  []string // each must appear as a whole problem line
		avoid string   // must not appear in any problem
	}{
		{
			name: "front matter required keys",
			edit: func(f fstest.MapFS) {
				f["faq/p.md"] = mdPage("title = \"T\"\n", "x\n")
			},
			want: []string{
				"content/faq/p.md:1:1: front matter: summary is required",
				"content/faq/p.md:1:1: front matter: lang is required",
				"content/faq/p.md:1:1: front matter: last_verified is required",
				"content/faq/p.md:1:1: page has no sources",
			},
		},
		{
			name: "unknown matrix ids and sources",
			edit: func(f fstest.MapFS) {
				f["faq/p.md"] = mdPage(goodFront+"adapters = [\"connectx-9000\"]\ndrivers = [\"nosuch_ib\"]\nchecks = [\"no-such-check\"]\n", "x\n")
				f["faq/q.md"] = mdPage(strings.Replace(goodFront, `["src-a"]`, `["src-a", "nope"]`, 1), "x\n")
			},
			want: []string{
				`content/faq/p.md:7:1: unknown adapter "connectx-9000" (not in the matrix)`,
				`content/faq/p.md:8:1: unknown driver "nosuch_ib" (not in the matrix)`,
				`content/faq/p.md:9:1: unknown check "no-such-check"`,
				`content/faq/q.md:4:1: unknown source "nope" (not in matrix sources)`,
			},
		},
		{
			name: "body links and citations",
			edit: func(f fstest.MapFS) {
				f["faq/p.md"] = mdPage(goodFront, "See [x](kb:faq/missing) and [t](kb:tree/t).\n"+
					"Gloss [g](kb:glossary/nope) and [a](kb:adapter/cx9) [old](../tree/t.html).\n"+
					"Cites [src-b] but `[src-z]` is code.\n```\n[src-y]\n```\n")
			},
			want: []string{
				`content/faq/p.md:8:5: broken link "kb:faq/missing": no such FAQ page`,
				`content/faq/p.md:9:7: broken link "kb:glossary/nope": no such glossary term`,
				`content/faq/p.md:9:33: broken link "kb:adapter/cx9": no such adapter`,
				`content/faq/p.md:9:53: link "../tree/t.html": write links to pages of this site as kb:<kind>/<id>, e.g. kb:tree/no-rdma-traffic`,
				`content/faq/p.md:10:7: citation [src-b] is not in the page's sources`,
			},
			avoid: "src-y",
		},
		{
			name: "translation pointing nowhere",
			edit: func(f fstest.MapFS) {
				f["faq/p.zh.md"] = mdPage(strings.Replace(goodFront, `lang = "en"`, `lang = "zh"`, 1)+"translation_key = \"k\"\n", "x\n")
			},
			want: []string{`content/faq/p.zh.md:7:1: translation_key "k" points nowhere: no page in another language has it`},
		},
		{
			name: "translation without key, wrong file lang, duplicate lang",
			edit: func(f fstest.MapFS) {
				f["faq/a.zh.md"] = mdPage(strings.Replace(goodFront, `lang = "en"`, `lang = "fr"`, 1), "x\n")
				f["faq/b.md"] = mdPage(goodFront+"translation_key = \"k\"\n", "x\n")
				f["faq/c.md"] = mdPage(goodFront+"translation_key = \"k\"\n", "x\n")
			},
			want: []string{
				`content/faq/a.zh.md:6:1: file name says "zh" but lang = "fr"`,
				`content/faq/a.zh.md:6:1: a fr page needs a translation_key naming the page it translates`,
				`content/faq/b.md:7:1: translation_key "k": content/faq/c.md is also lang "en"`,
			},
		},
		{
			name: "a good translation pair",
			edit: func(f fstest.MapFS) {
				f["faq/p.md"] = mdPage(goodFront+"translation_key = \"k\"\n", "[src-a]\n")
				f["faq/p.zh.md"] = mdPage(strings.Replace(goodFront, `lang = "en"`, `lang = "zh"`, 1)+"translation_key = \"k\"\n", "x\n")
			},
			avoid: "translation",
		},
		{
			name: "stale page",
			edit: func(f fstest.MapFS) {
				f["faq/p.md"] = mdPage(strings.Replace(goodFront, "2026-11-30", "2024-01-01", 1), "x\n")
			},
			want: []string{"content/faq/p.md:5:1: warning: last verified 2024-01-01, more than 365 days ago"},
		},
		{
			name: "tree: missing branch, dangling target, unknown check, bad yes_when",
			edit: func(f fstest.MapFS) {
				s := strings.Replace(goodTree, `no = "b"`, `no = "zzz"`, 1)
				s = strings.Replace(s, `check = "no-active-port"`, "check = \"no-such\"\nyes_when = \"maybe\"", 1)
				s += "\n[[node]]\nid = \"half\"\nquestion = \"H?\"\nhow = \"c\"\nlook_for = \"l\"\nyes = \"a\"\n"
				s = strings.Replace(s, `yes = "a"`+"\n"+`no = "zzz"`, `yes = "half"`+"\n"+`no = "zzz"`, 1)
				f["trees/t.toml"] = &fstest.MapFile{Data: []byte(s)}
			},
			want: []string{
				`content/trees/t.toml:12:1: unknown check "no-such"`,
				`content/trees/t.toml:13:1: yes_when "maybe": want ok or finding`,
				`content/trees/t.toml:15:1: no leads to "zzz", which is not a node of this tree`,
				`content/trees/t.toml:24:1: node "b" cannot be reached from start "q"`,
				`content/trees/t.toml:29:3: question "half" is missing its no branch`,
			},
		},
		{
			name: "tree: leaf without fix, unreachable node, duplicate id, broken links",
			edit: func(f fstest.MapFS) {
				s := strings.Replace(goodTree, "cause = \"C\"\nfix = \"F\"\nlinks = [\"faq/p\"]", "cause = \"C\"\nlinks = [\"faq/nope\", \"tree/none\", \"adapter/cx9\", \"glossary/zzz\", \"weird\"]", 1)
				s += "\n[[node]]\nid = \"b\"\ncause = \"C\"\nfix = \"F\"\nlinks = [\"faq/p\"]\n"
				s += "\n[[node]]\nid = \"orphan\"\ncause = \"C\"\nfix = \"F\"\nlinks = [\"faq/p\"]\n"
				f["trees/t.toml"] = &fstest.MapFile{Data: []byte(s)}
			},
			want: []string{
				`content/trees/t.toml:16:3: leaf "a" has no fix`,
				`content/trees/t.toml:19:1: broken link "faq/nope": no such FAQ page`,
				`content/trees/t.toml:19:1: broken link "tree/none": no such troubleshooting tree`,
				`content/trees/t.toml:19:1: broken link "adapter/cx9": no such adapter`,
				`content/trees/t.toml:19:1: broken link "glossary/zzz": no such glossary term`,
				`content/trees/t.toml:19:1: link "weird": want faq/<slug>, tree/<id>, glossary/<id>, adapter/<id> (or distro, driver, stack, vendor), a page such as sources, or a URL`,
				`content/trees/t.toml:28:1: duplicate node id "b"`,
				`content/trees/t.toml:34:1: node "orphan" cannot be reached from start "q"`,
			},
		},
		{
			name: "tree: bad start, missing sources, id and file name differ",
			edit: func(f fstest.MapFS) {
				s := strings.Replace(goodTree, `start = "q"`, `start = "nowhere"`, 1)
				s = strings.Replace(s, `sources = ["src-a"]`, `sources = []`, 1)
				f["trees/other.toml"] = &fstest.MapFile{Data: []byte(s)}
			},
			want: []string{
				`content/trees/other.toml:1:1: tree id "t" does not match its file name "other"`,
				`content/trees/t.toml:1:1: tree id "t" is also used by content/trees/other.toml`,
				`content/trees/other.toml:4:1: start "nowhere" is not a node of this tree`,
				`content/trees/other.toml:5:1: tree has no sources`,
			},
		},
		{
			name: "tree: a loop",
			edit: func(f fstest.MapFS) {
				s := strings.Replace(goodTree, `no = "b"`, `no = "q2"`, 1)
				s += "\n[[node]]\nid = \"q2\"\nquestion = \"Q2?\"\nhow = \"c\"\nlook_for = \"l\"\nyes = \"q\"\nno = \"b\"\n"
				f["trees/t.toml"] = &fstest.MapFile{Data: []byte(s)}
			},
			want: []string{`content/trees/t.toml:33:1: yes of "q2" loops back to "q": a tree walk must end`},
		},
		{
			name: "tree: question without branches is an error, not a leaf",
			edit: func(f fstest.MapFS) {
				s := strings.Replace(goodTree, "cause = \"C\"\nfix = \"F\"\nlinks = [\"faq/p\"]", "question = \"dangling?\"\nhow = \"c\"", 1)
				f["trees/t.toml"] = &fstest.MapFile{Data: []byte(s)}
			},
			want: []string{
				`content/trees/t.toml:18:1: node "a" asks a question but has no yes or no branch`,
				`content/trees/t.toml:16:3: leaf "a" has no fix`,
			},
		},
		{
			name: "glossary: duplicate, missing definition, broken see, unknown source",
			edit: func(f fstest.MapFS) {
				f["glossary.toml"] = &fstest.MapFile{Data: []byte(goodGlossary + "\n[[term]]\nid = \"gid\"\nterm = \"G\"\nsee = [\"faq/none\"]\nsources = [\"zz\"]\n")}
			},
			want: []string{
				`content/glossary.toml:8:1: duplicate glossary id "gid"`,
				`content/glossary.toml:7:3: glossary "gid": definition is required`,
				`content/glossary.toml:10:1: broken link "faq/none": no such FAQ page`,
				`content/glossary.toml:11:1: unknown source "zz" (not in matrix sources)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := base()
			tt.edit(f)
			got := lintFS(t, f)
			joined := strings.Join(got, "\n")
			for _, w := range tt.want {
				found := false
				for _, g := range got {
					if g == w {
						found = true
					}
				}
				if !found {
					t.Errorf("missing problem %q; got:\n%s", w, joined)
				}
			}
			if tt.avoid != "" && strings.Contains(joined, tt.avoid) {
				t.Errorf("unexpected problem mentioning %q:\n%s", tt.avoid, joined)
			}
		})
	}
}

// Without a matrix, matrix ids are not checked but everything else is.
func TestLintWithoutMatrix(t *testing.T) {
	t.Parallel()
	f := base()
	f["faq/p.md"] = mdPage(goodFront+"adapters = [\"anything\"]\n", "[x](kb:faq/nope)\n")
	c, _ := Load(f, "content")
	got := Lint(c, LintOptions{}).String()
	if strings.Contains(got, "anything") || strings.Contains(got, "src-a") {
		t.Errorf("matrix ids checked without a matrix:\n%s", got)
	}
	if !strings.Contains(got, `broken link "kb:faq/nope"`) {
		t.Errorf("body link not checked without a matrix:\n%s", got)
	}
}

func TestKnownChecksUnique(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, c := range KnownChecks {
		if seen[c] || !anchorRe.MatchString(c) {
			t.Errorf("check id %q is duplicated or malformed", c)
		}
		seen[c] = true
	}
}

func TestContentChecks(t *testing.T) {
	t.Parallel()
	f := base()
	f["faq/p.md"] = mdPage(goodFront+"checks = [\"stack-mixed\"]\n", "[src-a]\n")
	c, _ := Load(f, "content")
	got := strings.Join(c.Checks(), ",")
	if got != "no-active-port,stack-mixed" {
		t.Errorf("Checks() = %q", got)
	}
}

// TestLoadRejectsInvalidUTF8: a FAQ page with a byte that is not UTF-8 is
// an error at its line and column (pages are declared UTF-8); a hidden
// character (bidi override, zero-width) is a warning at its position.
func TestLoadRejectsInvalidUTF8(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"faq/bad.md":    mdPage(goodFront, "# Title\n\nRoCE 是 \xff\xfe broken\n"),
		"faq/hidden.md": mdPage(goodFront, "# Title\n\nrun mlx\u202econfig now\n"),
		"faq/good.md":   mdPage(goodFront, "# 标题\n\n中文 text\n"),
	}
	c, probs := Load(fsys, "content")
	got := probs.String()
	for _, want := range []string{
		"content/faq/bad.md:10:8: invalid UTF-8: byte 0xff",
		"content/faq/hidden.md:10:8: warning: hidden character U+202E",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if probs.Errors() != 1 || c.Page("bad") != nil || c.Page("good") == nil {
		t.Errorf("%d errors, pages %v:\n%s", probs.Errors(), c.Pages, got)
	}
}
