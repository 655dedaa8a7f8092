package matrix

import (
	"strings"
	"testing"
	"unsafe"
)

// TestRenamerOverlaps: Replace is a strings.Replacer of the same pairs
// where words overlap, one holds another, a text holds them back to back
// or a renamed word holds another word: on every text of up to six
// pieces of the words, parts of them and other bytes.
func TestRenamerOverlaps(t *testing.T) {
	t.Parallel()
	r := &Renamer{olds: []string{"abcd", "abc", "bcd", "cab", "ab", "b"}, news: []string{"W", "X", "abc", "", "Y", "bb"}}
	var args []string
	for k, o := range r.olds {
		args = append(args, o, r.news[k])
	}
	want := strings.NewReplacer(args...)
	pieces := []string{"a", "b", "c", "d", "ab", "abc", "abcd", "bcd", "cab", " ", "é"}
	var texts func(s string, n int)
	checked := 0
	texts = func(s string, n int) {
		if got, w := r.Replace(s), want.Replace(s); got != w {
			t.Fatalf("Replace(%q) = %q, want %q", s, got, w)
		}
		checked++
		if n == 0 {
			return
		}
		for _, p := range pieces {
			texts(s+p, n-1)
		}
	}
	texts("", 5)
	if checked < 100000 {
		t.Fatalf("checked %d texts", checked)
	}
}

// TestRenamerIsReplacer: for adapters of the bundled matrix renamed into
// one another (Rename needs identities of one shape, not peers), Replace
// gives what a strings.Replacer of the same pairs gives, on texts that
// name the first adapter and texts that do not, and returns a text that
// names none of its words as it is, not a copy.
func TestRenamerIsReplacer(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	n := 0
	for i := range m.Adapters {
		first := &m.Adapters[i]
		for j := i + 1; j < len(m.Adapters) && j < i+4; j++ {
			to := m.Adapters[j].ID
			r := m.Rename(first.ID, to)
			if r == nil {
				continue
			}
			n++
			var args []string
			for k, o := range r.olds {
				args = append(args, o, r.news[k])
			}
			want := strings.NewReplacer(args...)
			texts := []string{"", "no identity word here", first.ID, first.Name + " on RHEL 9.4", "firmware_min " + first.ID + " roce", strings.Repeat("x", 300) + first.Name}
			for _, p := range first.PCI {
				texts = append(texts, "PCI id "+p.ID+" ("+p.Name+")")
			}
			changed := 0
			for _, s := range texts {
				got, w := r.Replace(s), want.Replace(s)
				if got != w {
					t.Errorf("%s → %s: Replace(%q) = %q, want %q", first.ID, to, s, got, w)
				}
				if got != s {
					changed++
				}
			}
			if changed == 0 {
				t.Errorf("%s → %s: no text renamed", first.ID, to)
			}
			if s := "no identity word here"; unsafe.StringData(r.Replace(s)) != unsafe.StringData(s) {
				t.Errorf("%s → %s: a text naming none of the words was copied", first.ID, to)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d renamings of the bundled matrix's adapters", n)
	}
}
