package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A removal of something there is noted and waited out once; a removal of
// nothing, or any removal with no wait set, is not.
func TestSettle(t *testing.T) {
	dir := t.TempDir()
	s := &settler{wait: time.Hour, out: io.Discard}
	s.remove(filepath.Join(dir, "absent"))
	if !s.last.IsZero() {
		t.Fatal("removing nothing was noted as a removal")
	}
	there := filepath.Join(dir, "public")
	if err := os.MkdirAll(filepath.Join(there, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.remove(there)
	if _, err := os.Stat(there); !os.IsNotExist(err) {
		t.Fatalf("not removed: %v", err)
	}
	if s.last.IsZero() {
		t.Fatal("the removal was not noted")
	}
	s.last = time.Now().Add(-2 * time.Hour) // the window has passed
	s.settle()
	if !s.last.IsZero() {
		t.Fatal("settle kept the removal it waited out")
	}
	s.settle() // nothing to wait for: returns at once
	for fs, want := range map[string]time.Duration{"ext2/ext3": 61 * time.Second, "tmpfs": 0, "xfs": 0} {
		if got := defaultSettle(fs); got != want {
			t.Errorf("defaultSettle(%q) = %v, want %v", fs, got, want)
		}
	}
}
