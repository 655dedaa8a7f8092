package page

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// declaredKinds reads the Kind constants page.go declares, so that a kind
// declared without its row of Table fails TestTable.
func declaredKinds(t *testing.T) []Kind {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "page.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []Kind
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Kind" {
				continue
			}
			for _, val := range v.Values {
				lit, ok := val.(*ast.BasicLit)
				if !ok {
					t.Fatalf("a Kind constant that is not a string literal: %#v", val)
				}
				k, _ := strconv.Unquote(lit.Value)
				out = append(out, Kind(k))
			}
		}
	}
	return out
}

// TestTable: every declared kind has its row, and every row has each of
// its parts: a path, a template, and the label its place in
// the navigation or the breadcrumbs needs. (Templates exist and labels
// are translated: internal/build's TestKindParts.)
func TestTable(t *testing.T) {
	t.Parallel()
	declared := declaredKinds(t)
	if len(declared) < 20 {
		t.Fatalf("read only %d Kind constants from page.go", len(declared))
	}
	for _, k := range declared {
		if !k.Known() {
			t.Errorf("kind %q is declared but has no row in Table", k)
		}
	}
	if len(Table) != len(declared) {
		t.Errorf("Table has %d rows for %d declared kinds", len(Table), len(declared))
	}
	seen, paths := map[Kind]bool{}, map[string]Kind{}
	for _, s := range Table {
		if seen[s.Kind] {
			t.Errorf("%q has two rows", s.Kind)
		}
		seen[s.Kind] = true
		if (s.Dir == "") == (s.File == "") {
			t.Errorf("%q: want a Dir or a File, not %q and %q", s.Kind, s.Dir, s.File)
		}
		where := s.Dir + "/"
		if s.File != "" {
			where = s.File
		}
		if k, dup := paths[where]; dup {
			t.Errorf("%q and %q both live at %s", k, s.Kind, where)
		}
		paths[where] = s.Kind
		if s.Template == "" {
			t.Errorf("%q has no template", s.Kind)
		}
		if s.Nav && s.Label == "" {
			t.Errorf("%q is in the navigation without a label", s.Kind)
		}
		for _, up := range []Kind{s.Section, s.NavUnder} {
			if up == "" {
				continue
			}
			u := SpecOf(up)
			switch {
			case !up.Known():
				t.Errorf("%q sits under unknown kind %q", s.Kind, up)
			case u.File == "":
				t.Errorf("%q sits under %q, which is not one page", s.Kind, up)
			case u.Label == "":
				t.Errorf("%q sits under %q, which has no label for the breadcrumb", s.Kind, up)
			}
		}
		if s.Section != "" && s.NavUnder != "" {
			t.Errorf("%q has both a Section and NavUnder", s.Kind)
		}
		if s.Langs && s.Dir == "" {
			t.Errorf("%q has language variants but no ids to carry them", s.Kind)
		}
	}
}

func TestKindOf(t *testing.T) {
	t.Parallel()
	for _, s := range Table {
		id := ""
		if s.Dir != "" {
			id = "some-id.zh"
		}
		p := Ref{Kind: s.Kind, ID: id, Anchor: "a"}.URL()
		if k, ok := KindOf(p); !ok || k != s.Kind {
			t.Errorf("KindOf(%q) = %q, %t; want %q", p, k, ok, s.Kind)
		}
	}
	for _, p := range []string{"style.css", "adapter/x.json", "nope/x.html", "search/manifest.js"} {
		if k, ok := KindOf(p); ok {
			t.Errorf("KindOf(%q) = %q, want no page", p, k)
		}
	}
}
