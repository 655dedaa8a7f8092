package diag

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"mlx5_0", `"mlx5_0"`},
		{strings.Repeat("x", MaxQuoted), `"` + strings.Repeat("x", MaxQuoted) + `"`},
		// Cut on a whole character, with the value's length.
		{strings.Repeat("é", 20000), `"` + strings.Repeat("é", 40) + `"… (40000 bytes)`},
		{"x" + strings.Repeat("é", 100), `"x` + strings.Repeat("é", 39) + `"… (201 bytes)`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.20q…) = %q, want %q", c.in, got, c.want)
		}
	}
}
