package report

import (
	"io"
	"os"
)

// UseColor decides on colour: never, always, or (auto) only when stdout is
// a terminal, i.e. a character device, and NO_COLOR (no-color.org) is unset.
func UseColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
