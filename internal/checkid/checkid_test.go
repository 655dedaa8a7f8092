package checkid

import (
	"regexp"
	"slices"
	"testing"
)

// TestIDsSortedUniqueWellFormed: Known relies on the order, and trees and
// pages name the ids as anchors.
func TestIDsSortedUniqueWellFormed(t *testing.T) {
	t.Parallel()
	ids := IDs()
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Fatalf("ids not sorted and unique: %v", ids)
	}
	anchor := regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	for _, c := range All() {
		if !anchor.MatchString(c.ID) || c.Title == "" || !Known(c.ID) {
			t.Errorf("check %+v: malformed, untitled or not found", c)
		}
	}
	if Known("no-such-check") || Known("") {
		t.Error("Known accepts an unregistered id")
	}
}

// Every FAQ link names a page slug, and a vendor's link names its drivers.
func TestLinksWellFormed(t *testing.T) {
	t.Parallel()
	slug := regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	for _, c := range All() {
		for _, l := range c.FAQ {
			if !slug.MatchString(l.Slug) || slices.Contains(l.Drivers, "") {
				t.Errorf("%s: malformed link %+v", c.ID, l)
			}
		}
	}
}
