package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/rocekb/rocekb/internal/diag"
)

// Encode writes h in format "toml" or "json".
func Encode(w io.Writer, h *Host, format string) error {
	switch format {
	case "", "toml":
		var buf bytes.Buffer
		buf.WriteString("# rocekb host record. Schema: docs/reference.md\n")
		if err := toml.NewEncoder(&buf).Encode(h); err != nil {
			return fmt.Errorf("encode record: %w", err)
		}
		_, err := w.Write(buf.Bytes())
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(h)
	default:
		return fmt.Errorf("unknown format %q (want toml or json)", format)
	}
}

// Decode strictly reads a TOML or JSON host record. name is used in
// problems; a .json suffix selects JSON.
func Decode(name string, src []byte) (*Host, diag.List) {
	var h Host
	var probs diag.List
	if strings.HasSuffix(name, ".json") {
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&h); err != nil {
			probs.Add(name, diag.Pos{}, "%v", err)
		}
	} else {
		_, probs = diag.DecodeTOML(name, src, &h)
	}
	// A newer schema is refused in place of the strict decode's errors,
	// which (the newer schema's additions as unknown keys) would hide the
	// reason. The schema is peeked only then: a second, lenient parse of
	// every record cost a fifth of a fleet build.
	if probs.Errors() > 0 {
		if v := peekSchema(name, src); v > Schema {
			probs = nil
			probs.Add(name, diag.Pos{Line: 1, Col: 1}, "record schema %d is newer than this kbgen understands (%d); upgrade kbgen", v, Schema)
		}
		return nil, probs
	}
	switch {
	case h.Schema == 0:
		probs.Add(name, diag.Pos{Line: 1, Col: 1}, "not a host record: schema is missing")
	case h.Schema > Schema:
		probs.Add(name, diag.Pos{Line: 1, Col: 1}, "record schema %d is newer than this kbgen understands (%d); upgrade kbgen", h.Schema, Schema)
	}
	if probs.Errors() > 0 {
		return nil, probs
	}
	return &h, probs
}

// peekSchema reads only the schema number of a record, leniently; 0 when
// it cannot.
func peekSchema(name string, src []byte) int {
	var v struct {
		Schema int `toml:"schema" json:"schema"`
	}
	if strings.HasSuffix(name, ".json") {
		_ = json.Unmarshal(src, &v)
	} else {
		_, _ = toml.Decode(string(src), &v)
	}
	return v.Schema
}
