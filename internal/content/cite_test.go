package content

import "testing"

func TestLinkCitations(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"a [s1] b", `a [\[s1\]](#src-s1) b`},
		{"two [s1] [s2].", `two [\[s1\]](#src-s1) [\[s2\]](#src-s2).`},
		{"unknown [nope] stays", "unknown [nope] stays"},
		{"link [s1](x.html) stays", "link [s1](x.html) stays"},
		{"code `[s1]` stays", "code `[s1]` stays"},
		{"```\n[s1]\n```\n[s1]", "```\n[s1]\n```\n" + `[\[s1\]](#src-s1)`},
		{"[s1]: http://x reference", "[s1]: http://x reference"},
	}
	for _, tt := range tests {
		if got := LinkCitations(tt.in, []string{"s1", "s2"}); got != tt.want {
			t.Errorf("LinkCitations(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
