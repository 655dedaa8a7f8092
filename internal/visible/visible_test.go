package visible

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"mlx5_core 0000:3b:00.0", "mlx5_core 0000:3b:00.0"},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"主机 ConnectX-6 Dx — ok", "主机 ConnectX-6 Dx — ok"},
		{"\u001b]0;PWNED\u0007\u001b[2J\u001b[31mFAKE", `\x1b]0;PWNED\x07\x1b[2J\x1b[31mFAKE`},
		{"host\u202egnp.exe", `host\u202egnp.exe`},
		{"we\u200bb", `we\u200bb`},
		{"\u2066x\u2069", `\u2066x\u2069`},
		{"c1\u009b31m", `c1\x9b31m`},
		{"del\x7f", `del\x7f`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"cr\rlf", `cr\x0dlf`},
		{"tag\U000E0041", `tag\U000e0041`},
	}
	for _, c := range cases {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if i, _ := Find(Escape(c.in)); i >= 0 {
			t.Errorf("Escape(%q) still hides %s", c.in, Name(Escape(c.in), i))
		}
	}
}

func TestWriterKeepsOnlyItsColour(t *testing.T) {
	t.Parallel()
	c := NewColour()
	in := c.SGR("1") + "fleet" + c.SGR("0") + ": \x1b]0;PWNED\x07\x1b[2J\x1b[31mFAKE\x1b[0m\n"
	var plain, color strings.Builder
	Writer(&plain, Colour{}).Write([]byte("\x1b[1mfleet\x1b[0m\n"))
	Writer(&color, c).Write([]byte(in))
	if strings.ContainsRune(plain.String(), 0x1b) {
		t.Errorf("without colour an escape got through: %q", plain.String())
	}
	want := "\x1b[1mfleet\x1b[0m: \\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mFAKE\\x1b[0m\n"
	if color.String() != want {
		t.Errorf("with colour:\n got %q\nwant %q", color.String(), want)
	}
	if NewColour() == c {
		t.Errorf("two colour marks are the same")
	}
}
