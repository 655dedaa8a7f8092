package markup

import (
	"reflect"
	"testing"
)

// TextOf keeps what the page shows: link text, code block lines (a
// "# comment" inside one is not a heading) and code spans, and drops
// citations, emphasis marks, images and table rules.
func TestTextOf(t *testing.T) {
	src := "# Why RoCE v2 fails\n\nThe **GID** at [index 3](kb:faq/gid) is `::ffff:10.0.0.1` [nvidia-doc].\n\n" +
		"```\n# show_gids\nmlx5_0 1 3 ::ffff:10.0.0.1 v2\n```\n\n| Port | State |\n|---|---|\n| 1 | ACTIVE |\n\n![diagram](x.png)\n"
	got := TextOf(src)
	want := Text{
		Headings: []string{"Why RoCE v2 fails"},
		Body:     "The GID at index 3 is ::ffff:10.0.0.1.\n# show_gids\nmlx5_0 1 3 ::ffff:10.0.0.1 v2\n\nPort State \n1 ACTIVE",
		Code:     []string{"::ffff:10.0.0.1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TextOf:\n got %#v\nwant %#v", got, want)
	}
}

// FuzzTextOf: any text reads without panic, and its body holds no
// citation markup for an id the text cites alone on a line.
func FuzzTextOf(f *testing.F) {
	f.Add("# h\n\ntext [src-1] `code`\n\n```\nlog line\n```\n")
	f.Add("| a | b |\n|---|---|\n| [x](kb:faq/y) | ![i](p.png) |\n")
	f.Add("[nvidia-doc]\n")
	f.Fuzz(func(t *testing.T, src string) {
		tx := TextOf(src)
		if src == "[nvidia-doc]\n" && tx.Body != "" {
			t.Errorf("citation kept: %q", tx.Body)
		}
	})
}
