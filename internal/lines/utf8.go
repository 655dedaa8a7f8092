package lines

import (
	"bufio"
	"bytes"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF8 returns r's text as UTF-8. A UTF-8 byte order mark is dropped, and
// text that starts with a UTF-16 byte order mark (what Windows
// PowerShell's > and Notepad's "Unicode" save write) is transcoded as it
// is read. Anything else passes as it is.
func UTF8(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte{0xef, 0xbb, 0xbf}):
		br.Discard(3)
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		br.Discard(2)
		return &utf16Reader{r: br, little: true}
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		br.Discard(2)
		return &utf16Reader{r: br}
	}
	return br
}

// utf16Reader transcodes UTF-16 code units to UTF-8; a unit that pairs
// with no other becomes U+FFFD, as utf16.Decode makes it.
type utf16Reader struct {
	r      *bufio.Reader
	little bool
	out    []byte // transcoded bytes not yet read
	err    error
}

func (u *utf16Reader) unit() (uint16, error) {
	var b [2]byte
	if _, err := io.ReadFull(u.r, b[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return utf8.RuneError, nil // an odd last byte
		}
		return 0, err
	}
	if u.little {
		return uint16(b[0]) | uint16(b[1])<<8, nil
	}
	return uint16(b[0])<<8 | uint16(b[1]), nil
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) < len(p) && u.err == nil {
		c, err := u.unit()
		if err != nil {
			u.err = err
			break
		}
		r := rune(c)
		if utf16.IsSurrogate(r) {
			// A high surrogate takes the next unit when it is a low one.
			next, err := u.r.Peek(2)
			if err == nil && r < 0xdc00 {
				c2 := uint16(next[0])<<8 | uint16(next[1])
				if u.little {
					c2 = uint16(next[0]) | uint16(next[1])<<8
				}
				if d := utf16.DecodeRune(r, rune(c2)); d != utf8.RuneError {
					u.r.Discard(2)
					r = d
				} else {
					r = utf8.RuneError
				}
			} else {
				r = utf8.RuneError
			}
		}
		u.out = utf8.AppendRune(u.out, r)
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	if n == 0 && u.err != nil {
		return 0, u.err
	}
	return n, nil
}
