package content

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"
)

var tagUnsafe = regexp.MustCompile(`[^a-z0-9._-]+`)

// tagSlugs remembers TagSlug's answers: every build asks for every tag of
// every page, and kbgen serve builds again on every edit.
var tagSlugs sync.Map // tag → slug

// TagSlug makes a tag the id of its page (tag/<slug>.html); "index" is
// the index page's. Tags with one slug share a page.
func TagSlug(tag string) string {
	if s, ok := tagSlugs.Load(tag); ok {
		return s.(string)
	}
	s := makeTagSlug(tag)
	tagSlugs.Store(tag, s)
	return s
}

func makeTagSlug(tag string) string {
	s := tagUnsafe.ReplaceAllString(strings.ToLower(tag), "-")
	s = strings.Trim(tagDots.ReplaceAllString(s, "."), "-._")
	switch {
	case s == "index":
		s = "index-tag"
	case s == "" || !utf8ASCII(tag):
		// A tag in another script (网卡) keeps its own page: its slug is a
		// short digest, not the empty or shared remainder of its ASCII.
		sum := sha256.Sum256([]byte(tag))
		s = strings.Trim(s+"-"+hex.EncodeToString(sum[:4]), "-")
	}
	return s
}

var tagDots = regexp.MustCompile(`\.{2,}`)

func utf8ASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// HasTag reports whether the site has the page tag/<slug>.html: the
// tags index ("index"), or the page of a tag of a page or tree, by its
// slug (TagSlug).
func (c *Content) HasTag(slug string) bool {
	c.tagsOnce.Do(func() {
		c.tags = map[string]bool{"index": true}
		for _, p := range c.Pages {
			for _, t := range p.Meta.Tags {
				c.tags[TagSlug(t)] = true
			}
		}
		for _, t := range c.Trees {
			for _, tag := range t.Tags {
				c.tags[TagSlug(tag)] = true
			}
		}
	})
	return c.tags[slug]
}
