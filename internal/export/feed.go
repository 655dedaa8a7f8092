package export

import (
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/render"
)

// feedEntries caps the feed: readers want what changed lately.
const feedEntries = 50

// change is one dated matrix fact: a claim verified or a source retrieved.
type change struct {
	day   string // YYYY-MM-DD
	kind  string // "verified" or "retrieved"
	label string // "adapter connectx-5", "source rhel9-networking"
	link  string // site path of the page that shows it, or ""
}

// Feed emits feed.xml, an Atom feed of matrix changes: one entry per day
// on which claims were verified (their last_verified) and one per day on
// which sources were retrieved, newest first. With a base_url the feed's
// ids and links are absolute; without one they are relative to the feed,
// which sits at the site root.
func Feed(m *matrix.Matrix, title, baseURL string) render.Producer {
	return func(emit func(render.Output) error) error {
		return emit(render.Func("feed.xml", func(w io.Writer) error { return writeFeed(w, m, title, baseURL) }))
	}
}

// claims calls fn with every claim in v, labelled by its TOML path and the
// id of its entry, e.g. "adapter connectx-5 constraint msix-only".
func claims(v reflect.Value, label, link string, fn func(label, link string, c *matrix.Claim)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			claims(v.Elem(), label, link, fn)
		}
	case reflect.Slice:
		for i := range v.Len() {
			claims(v.Index(i), label, link, fn)
		}
	case reflect.Struct:
		if v.Type() == timeType {
			return
		}
		if id := entryID(v); id != "" {
			label = strings.TrimSpace(label + " " + id)
		}
		if a, ok := v.Addr().Interface().(*matrix.Adapter); ok {
			link = page.Path(page.Adapter, a.ID)
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("toml") == "-" {
				continue
			}
			fv := v.Field(i)
			if f.Type == reflect.TypeFor[matrix.Claim]() {
				c := fv.Addr().Interface().(*matrix.Claim)
				fn(label, link, c)
				continue
			}
			if k := fv.Kind(); k == reflect.Slice || k == reflect.Pointer || k == reflect.Struct {
				name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
				claims(fv, strings.TrimSpace(label+" "+name), link, fn)
			}
		}
	}
}

// entryID is the field that names an entry.
func entryID(v reflect.Value) string {
	var parts []string
	for _, n := range []string{"ID", "Version", "Number", "PCI", "Adapter", "Family", "From", "Feature", "Stack", "StackVersion"} {
		f := v.FieldByName(n)
		if f.IsValid() && f.Kind() == reflect.String && f.String() != "" {
			parts = append(parts, f.String())
			if n == "ID" || n == "Version" || n == "Number" {
				break
			}
		}
	}
	return strings.Join(parts, " ")
}

func changes(m *matrix.Matrix) []change {
	var out []change
	mv := reflect.ValueOf(m).Elem()
	t := mv.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if !f.IsExported() || name == "source" || name == "stack_release" || name == "-" {
			continue
		}
		claims(mv.Field(i), name, "", func(label, link string, c *matrix.Claim) {
			if c.LastVerified != nil {
				out = append(out, change{day: c.LastVerified.Format(time.DateOnly), kind: "verified", label: label, link: link})
			}
		})
	}
	for _, s := range m.Sources {
		if s.Retrieved != nil {
			out = append(out, change{day: s.Retrieved.Format(time.DateOnly), kind: "retrieved", label: s.Title + " (" + s.ID + ")", link: s.Href()})
		}
	}
	return out
}

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Base    string      `xml:"http://www.w3.org/XML/1998/namespace base,attr,omitempty"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomAuthor  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Href string `xml:"href,attr"`
	Type string `xml:"type,attr,omitempty"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	Title   string   `xml:"title"`
	ID      string   `xml:"id"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Content atomText `xml:"content"`
}

func writeFeed(w io.Writer, m *matrix.Matrix, title, baseURL string) error {
	cs := changes(m)
	type key struct{ day, kind string }
	groups := map[key][]change{}
	for _, c := range cs {
		k := key{c.day, c.kind}
		groups[k] = append(groups[k], c)
	}
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	// Newest first; on one day, verified claims before retrieved sources.
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].day != keys[j].day {
			return keys[i].day > keys[j].day
		}
		return keys[i].kind > keys[j].kind
	})
	if len(keys) > feedEntries {
		keys = keys[:feedEntries]
	}
	base := ""
	id := "urn:rocekb:matrix-changes"
	if baseURL != "" {
		base = strings.TrimRight(baseURL, "/") + "/"
		id = base + "feed.xml"
	}
	f := atomFeed{Base: base, Title: title + ": matrix changes", ID: id, Author: atomAuthor{Name: title},
		Links: []atomLink{{Rel: "self", Href: "feed.xml", Type: "application/atom+xml"}, {Rel: "alternate", Href: "matrix.json", Type: "application/json"}}}
	if base != "" {
		f.Links[0].Href, f.Links[1].Href = base+"feed.xml", base+"matrix.json"
	}
	for _, k := range keys {
		g := groups[k]
		sort.SliceStable(g, func(i, j int) bool { return g[i].label < g[j].label })
		var b strings.Builder
		b.WriteString("<ul>")
		for _, c := range g {
			b.WriteString("<li>")
			if c.link != "" {
				fmt.Fprintf(&b, `<a href="%s">%s</a>`, html.EscapeString(c.link), html.EscapeString(c.label))
			} else {
				b.WriteString(html.EscapeString(c.label))
			}
			b.WriteString("</li>")
		}
		b.WriteString("</ul>")
		var t string
		if k.kind == "verified" {
			t = fmt.Sprintf("%s: %d matrix claims verified", k.day, len(g))
		} else {
			t = fmt.Sprintf("%s: %d sources retrieved", k.day, len(g))
		}
		eid := id + ":" + k.kind + ":" + k.day
		if base != "" {
			eid = id + "#" + k.kind + "-" + k.day
		}
		e := atomEntry{Title: t, ID: eid, Updated: k.day + "T00:00:00Z",
			Link: atomLink{Rel: "alternate", Href: base + "matrix.json"}, Content: atomText{Type: "html", Body: b.String()}}
		f.Entries = append(f.Entries, e)
		if e.Updated > f.Updated {
			f.Updated = e.Updated
		}
	}
	if f.Updated == "" {
		f.Updated = "1970-01-01T00:00:00Z"
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
