package site

import (
	"bytes"
	"html/template"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
)

// reportTemplate is the host page's report as templates/host.html wrote
// it before ReportHTML, with the template functions it called (those of
// internal/render, and "shared" rendering every time).
func reportTemplate(t *testing.T) *template.Template {
	t.Helper()
	var tpl *template.Template
	funcs := template.FuncMap{
		"rel": func(from *HostPage, kind string, id ...string) (string, error) {
			r := page.Ref{Kind: page.Kind(kind), ID: id[0]}
			if err := r.Valid(); err != nil {
				return "", err
			}
			return page.RelRef(from.Path(), r), nil
		},
		"join": strings.Join,
		"date": func(t interface{ Format(string) string }) string { return t.Format("2006-01-02") },
		"shared": func(name string, data any) (template.HTML, error) {
			var b bytes.Buffer
			err := tpl.ExecuteTemplate(&b, name, data)
			return template.HTML(b.String()), err
		},
	}
	tpl = template.Must(template.New("").Funcs(funcs).ParseFiles("testdata/host-report.tmpl"))
	return tpl
}

// TestReportHTMLIsTemplate holds ReportHTML to the template it replaced,
// byte for byte: on every fixture host, and on each again with every
// string it shows made hostile (markup, quotes, an ampersand, a plus,
// NUL, bad and good %-escapes, non-ASCII, and then a javascript: scheme
// leading each), so the escaping of text, attributes and links is the
// template's too.
func TestReportHTMLIsTemplate(t *testing.T) {
	t.Parallel()
	_, pages := bundled(t)
	tpl := reportTemplate(t)
	check := func(name string, p *HostPage) {
		t.Helper()
		var want bytes.Buffer
		werr := tpl.ExecuteTemplate(&want, "report", p)
		got, gerr := p.ReportHTML()
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("%s: template error %v, ReportHTML error %v", name, werr, gerr)
		}
		if werr != nil {
			return
		}
		if w := strings.TrimPrefix(want.String(), "\n"); string(got) != w {
			i := 0
			for i < len(w) && i < len(got) && w[i] == got[i] {
				i++
			}
			t.Fatalf("%s: ReportHTML differs from the template at byte %d:\ntemplate:   %q\nReportHTML: %q", name, i, tail(w, i), tail(string(got), i))
		}
	}
	if len(pages) < 50 {
		t.Fatalf("%d fixture host pages: want the whole fixture set", len(pages))
	}
	for _, p := range pages {
		check(p.Path(), p)
		for _, lead := range []string{"", "javascript:"} {
			h := hostile(p, lead)
			check(p.Path()+" made hostile, led by "+lead, h)
		}
	}
}

func tail(s string, i int) string {
	s = s[max(0, i-40):]
	return s[:min(len(s), 120)]
}

// hostile is a deep copy of p whose strings (but for its Meta, the
// matrix's adapters and the trees' ids, which name pages) are led by lead
// and followed by what escaping must handle.
func hostile(p *HostPage, lead string) *HostPage {
	const follow = " <a href=\"x\">&amp;'+\x00é%zz%41%4 \xff"
	c := &HostPage{Meta: p.Meta}
	c.Title = lead + p.Title + follow
	v := reflect.ValueOf(c).Elem()
	src := reflect.ValueOf(p).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.Name == "Meta" || !f.IsExported() {
			continue
		}
		v.Field(i).Set(spoil(src.Field(i), lead, follow))
	}
	for i := range c.Walks {
		c.Walks[i].Tree = p.Walks[i].Tree // a page's id, which makes its path
	}
	return c
}

var (
	timeType    = reflect.TypeFor[time.Time]()
	adapterType = reflect.TypeFor[*matrix.Adapter]()
)

// spoil deep-copies v with every string led by lead and followed by
// follow, map keys too (so a lookup by a spoiled id finds its value).
func spoil(v reflect.Value, lead, follow string) reflect.Value {
	t := v.Type()
	if t == timeType || t == adapterType {
		return v
	}
	out := reflect.New(t).Elem()
	switch v.Kind() {
	case reflect.String:
		out.SetString(lead + v.String() + follow)
	case reflect.Pointer:
		if !v.IsNil() {
			e := reflect.New(t.Elem())
			e.Elem().Set(spoil(v.Elem(), lead, follow))
			out.Set(e)
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(t, v.Len(), v.Len())
			for i := 0; i < v.Len(); i++ {
				s.Index(i).Set(spoil(v.Index(i), lead, follow))
			}
			out.Set(s)
		}
	case reflect.Map:
		if !v.IsNil() {
			m := reflect.MakeMapWithSize(t, v.Len())
			for it := v.MapRange(); it.Next(); {
				m.SetMapIndex(spoil(it.Key(), lead, follow), spoil(it.Value(), lead, follow))
			}
			out.Set(m)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				out.Field(i).Set(spoil(v.Field(i), lead, follow))
			}
		}
	default:
		out.Set(v)
	}
	return out
}
