package suggest

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"connectx-5", "connectx-4", "bcm57508", "e810-c"}
	for _, tc := range []struct {
		got  string
		want []string
	}{
		{"conectx-5", []string{"connectx-5", "connectx-4"}},
		{"CONNECTX-5", []string{"connectx-5", "connectx-4"}},
		{"bcm5750", []string{"bcm57508"}},
		{"banana", nil},
		{"", nil},
	} {
		if got := Closest(tc.got, names, 2); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %v, want %v", tc.got, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"kitten", "sitting", 3}, {"abc", "", 3}, {"mofed", "mlnx-ofed", 4}} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestTransposed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"bnxter", "bnxtre", 1}, {"conectx6", "connectx6", 1}, {"ab", "ba", 1}, {"abc", "ca", 3}, {"kitten", "sitting", 3}} {
		if got := Transposed(tc.a, tc.b); got != tc.want {
			t.Errorf("Transposed(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
