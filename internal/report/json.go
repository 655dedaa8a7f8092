package report

import (
	"encoding/json"
	"io"
)

// JSON writes o as indented JSON, without HTML escaping.
func JSON(w io.Writer, o Output) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(o)
}
