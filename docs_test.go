package rocekb

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// TestReferenceDocumentsEveryKey fails when a TOML key of a contract type
// is missing from docs/reference.md.
func TestReferenceDocumentsEveryKey(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.PkgPath() == "time" {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			tag := strings.Split(f.Tag.Get("toml"), ",")[0]
			if tag == "-" || !f.IsExported() {
				continue
			}
			if tag != "" && !strings.Contains(string(doc), "`"+tag+"`") {
				t.Errorf("%s.%s: key %q is not documented in docs/reference.md", typ.Name(), f.Name, tag)
			}
			walk(f.Type)
		}
	}
	for _, v := range []any{record.Host{}, matrix.Matrix{}, content.Front{}, content.Tree{}, content.Term{}, config.Config{}} {
		walk(reflect.TypeOf(v))
	}
}
