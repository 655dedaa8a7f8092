package diagnose

import (
	"sort"

	"github.com/rocekb/rocekb/internal/content"
)

// Links maps check ids to the content that explains them.
type Links struct {
	FAQ   map[string][]string // check id → faq/<slug>
	Trees map[string][]string // check id → tree/<id>
}

// LinksFrom indexes the FAQ pages whose front matter lists a check and the
// trees with a node naming one. c may be nil.
func LinksFrom(c *content.Content) Links {
	l := Links{FAQ: map[string][]string{}, Trees: map[string][]string{}}
	if c == nil {
		return l
	}
	for _, p := range c.Pages {
		for _, id := range p.Meta.Checks {
			l.FAQ[id] = appendUnique(l.FAQ[id], "faq/"+p.Slug)
		}
	}
	for _, t := range c.Trees {
		for _, n := range t.Nodes {
			if n.Check != "" {
				l.Trees[n.Check] = appendUnique(l.Trees[n.Check], "tree/"+t.ID)
			}
		}
	}
	for _, m := range []map[string][]string{l.FAQ, l.Trees} {
		for k := range m {
			sort.Strings(m[k])
		}
	}
	return l
}

func (l Links) attach(f *Finding) {
	f.FAQ = l.FAQ[f.Check]
	f.Trees = l.Trees[f.Check]
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}
