package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUseColor runs serially: it sets NO_COLOR.
func TestUseColor(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	cases := []struct {
		mode string
		w    interface{ Write([]byte) (int, error) }
		want bool
	}{
		{"auto", &buf, false}, // not a file
		{"auto", f, false},    // a regular file is not a terminal
		{"always", &buf, true},
		{"never", f, false},
	}
	for _, c := range cases {
		if got := UseColor(c.mode, c.w); got != c.want {
			t.Errorf("UseColor(%s, %T) = %v, want %v", c.mode, c.w, got, c.want)
		}
	}
	// A character device (what a terminal is) gets colour, unless NO_COLOR.
	if dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer dev.Close()
		if !UseColor("auto", dev) {
			t.Errorf("auto on a character device: no colour")
		}
		t.Setenv("NO_COLOR", "1")
		if UseColor("auto", dev) {
			t.Errorf("NO_COLOR ignored")
		}
	}
}
