package site

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/page"
)

// TestHostNamesUnique gives adversarial id sets (collisions with the
// numbered names themselves, ids that differ only in case or punctuation,
// the host folder's index, empty and over-long ids) and requires every
// host page a name of its own that starts with its id's slug.
func TestHostNamesUnique(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 120)
	atoms := []string{"web", "web-2", "web-3", "web-2-2", "WEB", "web.", "Web!", "index", "INDEX", "index-2", "",
		"-", "(web)", "host", "host-2", long, long + "-2", long[:99] + "-2", "wéb", "web\u202egnp", "web\u200b"}
	check := func(ids []string) {
		t.Helper()
		var n hostNames
		seen := map[string]string{}
		for _, id := range ids {
			slug := n.name(id)
			if prev, ok := seen[slug]; ok {
				t.Fatalf("ids %q: %q and %q both named %q", ids, prev, id, slug)
			}
			seen[slug] = id
			if hostReserved[slug] || page.Path(page.Host, slug) == page.Path(page.Hosts, "") {
				t.Fatalf("ids %q: %q named %q, the host folder's own page", ids, id, slug)
			}
			base := page.Slug(id)
			if base == "" {
				base = "host"
			}
			if !strings.HasPrefix(slug, base) {
				t.Fatalf("id %q named %q, not after its slug %q", id, slug, base)
			}
		}
	}
	check([]string{"web", "web", "web-2"})
	check([]string{"web-2", "web", "web"})
	check([]string{"index", "index", "host", ""})
	r := rand.New(rand.NewPCG(20, 1))
	for range 2000 {
		ids := make([]string, 1+r.IntN(12))
		for i := range ids {
			ids[i] = atoms[r.IntN(len(atoms))]
		}
		check(ids)
	}
}

// TestHostNamesKeepFirstNames pins the names earlier builds gave, so links
// to host pages stay: the first host keeps its slug, the next ones are
// numbered from 2 in record order.
func TestHostNamesKeepFirstNames(t *testing.T) {
	t.Parallel()
	var n hostNames
	var got []string
	for _, id := range []string{"web", "web", "web-2", "web", "db"} {
		got = append(got, n.name(id))
	}
	want := "web web-2 web-2-2 web-3 db"
	if strings.Join(got, " ") != want {
		t.Errorf("names %q, want %q", strings.Join(got, " "), want)
	}
}
