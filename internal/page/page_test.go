package page

import (
	"regexp"
	"strings"
	"testing"
)

// TestPathsAreStable pins today's URLs: links into a published site must
// keep working.
func TestPathsAreStable(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		ref  Ref
		want string
	}{
		{Ref{Kind: Home}, "index.html"},
		{Ref{Kind: Adapter, ID: "connectx-5"}, "adapter/connectx-5.html"},
		{Ref{Kind: FAQ, ID: "roce-modes.zh"}, "faq/roce-modes.zh.html"},
		{Ref{Kind: Tree, ID: "no-rdma-traffic", Anchor: "port-active"}, "tree/no-rdma-traffic.html#port-active"},
		{Ref{Kind: Host, ID: "node-1"}, "host/node-1.html"},
		{Ref{Kind: Glossary, Anchor: "gid"}, "glossary.html#gid"},
		{Ref{Kind: Fleet}, "fleet.html"},
		{Ref{Kind: Adapters}, "adapter/index.html"},
		{Ref{Kind: NotFound}, "404.html"},
	} {
		if got := tt.ref.URL(); got != tt.want {
			t.Errorf("%+v.URL() = %q, want %q", tt.ref, got, tt.want)
		}
	}
	for _, k := range Kinds() {
		if !k.Known() {
			t.Errorf("Kinds lists unknown kind %q", k)
		}
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Ref{
		"faq/roce-v1-vs-v2":  {Kind: FAQ, ID: "roce-v1-vs-v2"},
		"tree/no-rdma#port":  {Kind: Tree, ID: "no-rdma", Anchor: "port"},
		"glossary/gid":       {Kind: Glossary, Anchor: "gid"},
		"glossary":           {Kind: Glossary},
		"fleet":              {Kind: Fleet},
		"adapter/connectx-5": {Kind: Adapter, ID: "connectx-5"},
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if again, err := Parse(got.String()); err != nil || again != got {
			t.Errorf("Parse(%q.String() = %q) = %+v, %v", in, got.String(), again, err)
		}
	}
	for in, msg := range map[string]string{
		"faq":               "needs an id",
		"fleet/x":           "takes no id",
		"wiki/x":            "unknown page kind",
		"faq/../../etc":     "use letters",
		"tree/a/b":          "use letters",
		"glossary/gid#more": "already an anchor",
		"tree/x#a b":        "anchor",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Parse(%q) error = %v, want it to say %q", in, err, msg)
		}
	}
}

func TestRel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ from, to, want string }{
		{"index.html", "adapter/x.html", "adapter/x.html"},
		{"faq/a.html", "tree/b.html", "../tree/b.html"},
		{"faq/a.html", "faq/b.html", "../faq/b.html"},
		{"host/h.html", "glossary.html#gid", "../glossary.html#gid"},
		{"faq/a.html", "https://example.com/x", "https://example.com/x"},
	} {
		if got := Rel(tt.from, tt.to); got != tt.want {
			t.Errorf("Rel(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestPathPanicsOnUnsafeID(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Path accepted an id that climbs out of its folder")
		}
	}()
	Path(Adapter, "../x")
}

// TestSlug: whatever a record says, the slug is a safe id.
func TestSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"db-01.example.com":               "db-01.example.com",
		"(x.golden)":                      "x.golden",
		"<script>window.__xss=1</script>": "script-window.__xss-1-script",
		"../../etc/passwd":                "etc-passwd",
		"a..b":                            "a.b",
		"_hidden":                         "hidden",
		"...":                             "",
		"ÄÖ":                              "",
		strings.Repeat("a", 300):          strings.Repeat("a", 100),
	} {
		got := Slug(in)
		if got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
		if got != "" {
			_ = Path(Host, got) // panics on an unsafe id
		}
	}
}

// TestSafeID holds safeID to the pattern it checks by hand.
func TestSafeID(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	for _, s := range []string{"", "a", "Z9", "connectx-5", "mlx5_core", "rhel-9.4", "a..b", ".a", "-a", "_a", "a/b", "a b",
		"a\n", "\na", "é", "a-", "a.", "9", "a#b", "a%2e", "\x00", "ab\xff", "x.y_z-1"} {
		if got, want := safeID(s), re.MatchString(s); got != want {
			t.Errorf("safeID(%q) = %t, the pattern says %t", s, got, want)
		}
	}
}

// TestMissing: a broken link says why, and for a page that Needs an input
// names that input.
func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		ref  Ref
		want string
	}{
		{Ref{Kind: Fleet}, "only a site built with host records has the fleet page"},
		{Ref{Kind: Glossary}, "only a site built with glossary terms has the glossary page"},
		{Ref{Kind: Glossary, Anchor: "gid"}, "no such glossary term"},
		{Ref{Kind: FAQ, ID: "x"}, "no such FAQ page"},
	} {
		if got := tc.ref.Missing(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.ref, got, tc.want)
		}
	}
	for _, s := range Table {
		if s.Optional() && !strings.Contains(Ref{Kind: s.Kind}.Missing(), string(s.Needs)) {
			t.Errorf("%s: the message does not name what the page needs", s.Kind)
		}
	}
}
