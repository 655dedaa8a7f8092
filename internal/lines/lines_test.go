package lines

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEach(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 3*Max)
	in := "a\r\nb\n\n" + long + "\nlast"
	var got []string
	if err := Each(strings.NewReader(in), func(s string) { got = append(got, s) }); err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b", "", long[:Max], "last"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}

func FuzzEach(f *testing.F) {
	f.Add("a\nb\r\nc")
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		Each(strings.NewReader(s), func(line string) {
			if len(line) > Max {
				t.Fatalf("line of %d bytes", len(line))
			}
			n++
		})
		if n > strings.Count(s, "\n")+1 {
			t.Fatalf("%d lines from %d newlines", n, strings.Count(s, "\n"))
		}
	})
}
