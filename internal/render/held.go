package render

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"unsafe"
)

// A template prints a value through fmt.Fprint, which copies it into a
// buffer of its own (a new one for each value over 64 KiB) before the
// page's writer gets it: a distro page's list of every adapter (hundreds
// of KB), an adapter page's grid (tens of KB) and an FAQ page's body were
// each copied once more than their way to the file needs. A template
// prints such a value with {{held .X}} instead: held keeps X and prints
// a token standing for it, which the page's writer (heldWriter) replaces
// by X's bytes, written on as they are.
//
// No page text can pass for a token: fmt prints a value in one Write, so
// the writer replaces only a Write that is a token whole; a token begins
// with a NUL, which html/template escapes in every value it escapes, and
// holds a nonce drawn at random when the templates are loaded, which no
// input can know; and it stands only for a value held and not yet written.
//
// A value may also be an HTMLWriter, HTML that a page writes as it goes
// and never holds whole.

// HTMLWriter is HTML written into a page by held (a distro page's list of
// every adapter): WriteHTML writes it to w.
type HTMLWriter interface {
	WriteHTML(w io.Writer) error
}

// tokenLen is a token's length: a NUL, the nonce, the value's number in
// hex, a NUL.
const tokenLen = 1 + 2*nonceLen + 16 + 1

const nonceLen = 8

// holder keeps the values templates print through held until the page's
// writer writes them.
type holder struct {
	prefix [1 + 2*nonceLen]byte // a NUL and the nonce in hex
	mu     sync.Mutex
	next   uint64
	values map[uint64]any // a template.HTML or an HTMLWriter
}

func newHolder() (*holder, error) {
	var nonce [nonceLen]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, fmt.Errorf("held values' nonce: %w", err)
	}
	h := &holder{values: map[uint64]any{}}
	hex.Encode(h.prefix[1:], nonce[:])
	return h, nil
}

// held is the templates' held: v's token, or v itself when it is empty
// or the templates print held values Inline. v is a template.HTML or an
// HTMLWriter.
func (t *Templates) held(v any) (template.HTML, error) {
	switch v := v.(type) {
	case template.HTML:
		if t.Inline || v == "" {
			return v, nil
		}
	case HTMLWriter:
		if t.Inline {
			var b strings.Builder
			err := v.WriteHTML(&b)
			return template.HTML(b.String()), err
		}
	default:
		return "", fmt.Errorf("held: %T is neither template.HTML nor an HTMLWriter", v)
	}
	return t.values.hold(v), nil
}

// Holding is how many values the templates hold that no page has written
// yet: none once the pages are written, unless a template evaluated held
// without printing its result.
func (t *Templates) Holding() int {
	h := t.values
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.values)
}

// hold keeps v and returns its token.
func (h *holder) hold(v any) template.HTML {
	h.mu.Lock()
	n := h.next
	h.next++
	h.values[n] = v
	h.mu.Unlock()
	var tok [tokenLen]byte
	copy(tok[:], h.prefix[:])
	var num [8]byte
	binary.BigEndian.PutUint64(num[:], n)
	hex.Encode(tok[len(h.prefix):], num[:])
	return template.HTML(tok[:]) // its last byte is the closing NUL
}

// take returns the value a token stands for and forgets it; b is a token
// when ok, and a token of a value no longer held is an error.
func (h *holder) take(b []byte) (v any, ok bool, err error) {
	if len(b) != tokenLen || string(b[:len(h.prefix)]) != string(h.prefix[:]) || b[tokenLen-1] != 0 {
		return nil, false, nil
	}
	var num [8]byte
	if _, err := hex.Decode(num[:], b[len(h.prefix):tokenLen-1]); err != nil {
		return nil, false, nil
	}
	n := binary.BigEndian.Uint64(num[:])
	h.mu.Lock()
	v, held := h.values[n]
	delete(h.values, n)
	h.mu.Unlock()
	if !held {
		return nil, true, fmt.Errorf("a value printed through held was printed twice")
	}
	return v, true, nil
}

// heldWriter is the writer a page is rendered into: it writes a held
// value in place of its token, and everything else as it comes.
type heldWriter struct {
	w io.Writer
	h *holder
}

func (hw *heldWriter) Write(b []byte) (int, error) {
	if len(b) == tokenLen && b[0] == 0 {
		v, ok, err := hw.h.take(b)
		if err != nil {
			return 0, err
		}
		if ok {
			switch v := v.(type) {
			case template.HTML:
				// Written from the string's own bytes, not a copy: a
				// writer never modifies what it is given (io.Writer).
				_, err = hw.w.Write(unsafe.Slice(unsafe.StringData(string(v)), len(v)))
			case HTMLWriter:
				err = v.WriteHTML(hw.w)
			}
			if err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	return hw.w.Write(b)
}
