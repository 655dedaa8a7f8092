package content

import (
	"testing"

	"github.com/rocekb/rocekb/internal/page"
)

// TestTagSlugAlwaysAPath: whatever a person writes as a tag gives a page
// path (page.Path panics on an unsafe id), and tags in another script do
// not all share one page.
func TestTagSlugAlwaysAPath(t *testing.T) {
	seen := map[string]string{}
	for _, tag := range []string{"__ib_cache_gid_add", "_", "..", "a..b", ".hidden", "index", "INDEX", "-", "---x---",
		"网卡", "驱动", "端口 DOWN", "mlx5_core", "RoCE v2", "a/b\\c", "\u202egnp", "", " "} {
		s := TagSlug(tag)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("tag %q → slug %q is no page path: %v", tag, s, r)
				}
			}()
			page.Path(page.Tag, s)
		}()
		if prev, ok := seen[s]; ok && (tag == "网卡" || tag == "驱动" || tag == "端口 DOWN") {
			t.Errorf("tags %q and %q share the slug %q", prev, tag, s)
		}
		seen[s] = tag
	}
	if got := TagSlug("mlx5_core"); got != "mlx5_core" {
		t.Errorf("TagSlug(mlx5_core) = %q, want it unchanged", got)
	}
}

// TestHasTag: a tag of a page or a tree names its page by its slug.
func TestHasTag(t *testing.T) {
	c := &Content{Pages: []*Page{{Meta: Front{Tags: []string{"RoCE v2"}}}}, Trees: []*Tree{{Tags: []string{"网卡"}}}}
	for _, tag := range []string{"RoCE v2", "网卡"} {
		if !c.HasTag(TagSlug(tag)) {
			t.Errorf("HasTag(%q) = false for the tag %q", TagSlug(tag), tag)
		}
	}
	if c.HasTag("roce") {
		t.Error(`HasTag("roce") = true, but no page has that tag`)
	}
}
