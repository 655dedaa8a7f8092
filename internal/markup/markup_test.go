package markup

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/page"
)

type pages map[string]bool

func (p pages) Has(r page.Ref) bool { return p[r.String()] }

func TestRenderResolvesLinksAndCitations(t *testing.T) {
	t.Parallel()
	d := Doc{File: "content/faq/q.md", Line: 10, Page: "faq/q.html", Sources: []string{"s1", "s2"},
		Pages: pages{"tree/no-rdma": true, "glossary/gid": true, "faq/other": true}}
	tests := []struct{ in, want string }{
		{"a [s1] b", `<p>a <a href="#src-s1">[s1]</a> b</p>`},
		{"two [s1] [s2].", `<p>two <a href="#src-s1">[s1]</a> <a href="#src-s2">[s2]</a>.</p>`},
		{"numbers [1] stay", "<p>numbers [1] stay</p>"},
		{"code `[s1]` stays", "<p>code <code>[s1]</code> stays</p>"},
		{"```\n[s1]\n```", "<pre><code>[s1]\n</code></pre>"},
		{"[s1]: https://x.example/\n\nref [s1] link", `<p>ref <a href="https://x.example/">s1</a> link</p>`},
		// A citation that starts a line of its paragraph and a colon follows
		// is no definition: it links.
		{"on a timer\n[s2]: the driver", "<p>on a timer\n<a href=\"#src-s2\">[s2]</a>: the driver</p>"},
		{"[s2]: the driver says", `<p><a href="#src-s2">[s2]</a>: the driver says</p>`},
		{"see [the tree](kb:tree/no-rdma)", `<p>see <a href="../tree/no-rdma.html">the tree</a></p>`},
		{"[GID](kb:glossary/gid) and [other](kb:faq/other)", `<p><a href="../glossary.html#gid">GID</a> and <a href="../faq/other.html">other</a></p>`},
		{"[web](https://x.example/)", `<p><a href="https://x.example/">web</a></p>`},
	}
	for _, tt := range tests {
		html, probs := Render(tt.in, d)
		if len(probs) > 0 {
			t.Errorf("Render(%q): %v", tt.in, probs)
		}
		if got := strings.TrimSpace(string(html)); got != tt.want {
			t.Errorf("Render(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCheckReportsPositions(t *testing.T) {
	t.Parallel()
	d := Doc{File: "content/faq/q.md", Line: 10, Page: "faq/q.html", Sources: []string{"s1"}, Pages: pages{"tree/t": true}}
	src := "Fine [s1].\n\nThen [nope] and\n[x](kb:tree/missing), [y](../tree/t.html), [z](kb:wiki/a) [w](javascript:alert(1))\n"
	got := Check(src, d).String()
	want := `content/faq/q.md:12:6: citation [nope] is not in the page's sources
content/faq/q.md:13:1: broken link "kb:tree/missing": no such troubleshooting tree
content/faq/q.md:13:23: link "../tree/t.html": write links to pages of this site as kb:<kind>/<id>, e.g. kb:tree/no-rdma-traffic
content/faq/q.md:13:44: link "kb:wiki/a": page reference "wiki/a": unknown page kind "wiki"
content/faq/q.md:13:59: link "javascript:alert(1)": only http, https and mailto URLs are allowed
`
	if got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
}
