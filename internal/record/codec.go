package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/rocekb/rocekb/internal/diag"
)

// Encode writes h in format "toml" or "json", the sources absent at their
// own path listed by reason in [[absent]] (schema 3).
func Encode(w io.Writer, h *Host, format string) error {
	h = h.compactAbsent()
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
			probs.Add(name, jsonErrorPos(src, err), "%s", strings.TrimPrefix(err.Error(), "json: "))
		} else if _, err := dec.Token(); err != io.EOF {
			probs.Add(name, offsetPos(src, dec.InputOffset()), "more after the record's closing brace")
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
	h.expandAbsent()
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

// jsonErrorPos finds where a JSON decoding error is: the offset a syntax
// or type error carries, or the key an unknown-field error names.
func jsonErrorPos(src []byte, err error) diag.Pos {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return offsetPos(src, syn.Offset)
	case errors.As(err, &typ):
		return offsetPos(src, typ.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return offsetPos(src, int64(len(src)))
	}
	if _, key, ok := strings.Cut(err.Error(), "unknown field "); ok {
		if k, uerr := strconv.Unquote(key); uerr == nil {
			if i := jsonKeyIndex(src, k); i >= 0 {
				return offsetPos(src, int64(i)+1)
			}
		}
	}
	return diag.Pos{}
}

// jsonKeyIndex is the offset of the first "k" written as an object key.
func jsonKeyIndex(src []byte, k string) int {
	q, _ := json.Marshal(k)
	for from := 0; ; {
		i := bytes.Index(src[from:], q)
		if i < 0 {
			return -1
		}
		i += from
		if rest := bytes.TrimLeft(src[i+len(q):], " \t\r\n"); len(rest) > 0 && rest[0] == ':' {
			return i
		}
		from = i + len(q)
	}
}

// offsetPos turns a byte offset (1-based, as encoding/json counts the byte
// it stopped after) into a line and a column in runes.
func offsetPos(src []byte, off int64) diag.Pos {
	if off <= 0 {
		return diag.Pos{Line: 1, Col: 1}
	}
	if off > int64(len(src)) {
		off = int64(len(src))
	}
	before := src[:off-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return diag.Pos{Line: line, Col: col}
}
