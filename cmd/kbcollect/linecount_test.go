package main

import "testing"

// TestLineCount: the paste summary says "1 line", never "1 lines".
func TestLineCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 lines", 1: "1 line", 2: "2 lines"} {
		if got := lineCount(n); got != want {
			t.Errorf("lineCount(%d) = %q, want %q", n, got, want)
		}
	}
}
