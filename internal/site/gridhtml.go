package site

import (
	"bytes"
	"html/template"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rocekb/rocekb/internal/bufpool"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/verdict"
)

// GridHTML is a grid's repeating markup, written by writeHTML instead of
// template loops: the table, the column conditions, the explanations, the
// numbered reasons and the shared matrix entries (each "" when the grid
// has none). The adapter template places them under its headings.
type GridHTML struct {
	Table, Common, Whys, Reasons, Refs template.HTML
}

// writeHTML sets g.HTML for the page at path from. It appends each field
// of the grid escaped as html/template escapes text and attribute values,
// so the grid costs no reflection per cell. It leaves out the end tags
// HTML lets a page omit (</th>, </td>, </tr> and </li>, each closed by the
// next cell, row or item or by its list's or table's end): the parsed page
// is the same, and they were a twentieth of a grid's bytes.
func (g *Grid) writeHTML(from string) {
	// Each part is written in one lent buffer and copied out at its size:
	// grown from empty, the parts were a grid's largest allocations
	// (about twice their bytes, on every adapter page).
	buf := bufpool.Get()
	b := buf.AvailableBuffer()
	defer func() {
		if cap(b) > buf.Cap() {
			buf = bytes.NewBuffer(b[:0]) // keep what the parts grew it to
		}
		bufpool.Put(buf)
	}()
	take := func() template.HTML {
		s := template.HTML(b)
		b = b[:0]
		return s
	}

	b = append(b, `<table class="grid"><thead><tr><th scope="col">Distro`...)
	for _, st := range g.Stacks {
		b = append(b, `<th scope="col">`...)
		b = appendEscaped(b, st.Label)
	}
	b = append(b, "</thead><tbody>\n"...)
	for _, r := range g.Rows {
		if r.Span == 0 {
			continue
		}
		b = append(b, `<tr><th scope="row">`...)
		for k, d := range r.Group {
			b = append(b, `<a id="d-`...)
			b = appendEscaped(b, d.Distro.Key)
			b = append(b, `" href="`...)
			b = appendEscaped(b, page.RelRef(from, page.Ref{Kind: page.Distro, ID: d.Distro.Key}))
			b = append(b, `">`...)
			b = appendEscaped(b, d.Distro.Label[sameName(r.Group, k):])
			b = append(b, `</a>`...)
			if k := d.Kernel; k != nil {
				b = append(b, `<small>`...)
				if k.Kernel != "" {
					b = appendEscaped(b, k.Kernel)
					if k.Base != "" {
						b = append(b, ` (upstream `...)
						b = appendEscaped(b, k.Base)
						b = append(b, ')')
					}
				} else {
					b = append(b, `upstream `...)
					b = appendEscaped(b, k.Base)
				}
				if k.Confidence != "vendor-documented" {
					b = append(b, ` <span class="claim `...)
					b = appendEscaped(b, k.Confidence)
					b = append(b, `">`...)
					b = appendEscaped(b, k.Confidence)
					b = append(b, `</span>`...)
				}
				b = append(b, `</small>`...)
			}
			for _, n := range d.Reasons {
				b = append(b, ` <a href="#r`...)
				b = strconv.AppendInt(b, int64(n), 10)
				b = append(b, `">`...)
				b = strconv.AppendInt(b, int64(n), 10)
				b = append(b, `</a>`...)
			}
		}
		for _, c := range r.Cells {
			b = append(b, `<td class="v `...)
			b = appendEscaped(b, c.Class)
			b = append(b, `"><a href="#w`...)
			b = strconv.AppendInt(b, int64(c.Why), 10)
			b = append(b, `">`...)
			b = appendEscaped(b, c.Mark)
			b = append(b, `<i>`...)
			b = strconv.AppendInt(b, int64(c.Why), 10)
			b = append(b, `</i></a>`...)
		}
		b = append(b, '\n')
	}
	b = append(b, `</tbody></table>`...)
	g.HTML.Table = take()

	for i := range g.Common {
		b = appendReason(b, &g.Common[i])
	}
	g.HTML.Common = take()

	for i := range g.Whys {
		w := &g.Whys[i]
		b = append(b, `<li id="w`...)
		b = strconv.AppendInt(b, int64(w.N), 10)
		b = append(b, `"><b>`...)
		b = strconv.AppendInt(b, int64(w.N), 10)
		b = append(b, `</b> <span class="v `...)
		b = appendEscaped(b, w.Class)
		b = append(b, `">`...)
		b = appendEscaped(b, w.Mark)
		b = append(b, ' ')
		b = appendEscaped(b, w.Word)
		b = append(b, `</span>`...)
		if w.Likely != "" {
			b = appendLikely(b, w.Likely)
		}
		b = append(b, ": "...)
		for k := range w.Own {
			if k > 0 {
				b = append(b, "; "...)
			}
			b = appendReasonText(b, &w.Own[k])
		}
		switch {
		case len(w.Reasons) > 0:
			if len(w.Own) > 0 {
				b = append(b, "; "...)
			}
			b = append(b, "reasons "...)
			for k, n := range w.Reasons {
				if k > 0 {
					b = append(b, ", "...)
				}
				b = append(b, `<a href="#r`...)
				b = strconv.AppendInt(b, int64(n), 10)
				b = append(b, `">`...)
				b = strconv.AppendInt(b, int64(n), 10)
				b = append(b, `</a>`...)
			}
		case len(w.Own) == 0:
			b = append(b, "none of its own"...)
		}
		if len(w.Nearest) > 0 {
			b = append(b, " — nearest: "...)
			b = appendEscaped(b, strings.Join(w.Nearest, "; "))
		}
		b = append(b, '\n')
	}
	g.HTML.Whys = take()

	for i := range g.Reasons {
		b = appendReason(b, &g.Reasons[i])
	}
	g.HTML.Reasons = take()

	for _, r := range g.Refs {
		b = append(b, `<li id="m`...)
		b = strconv.AppendInt(b, int64(r.N), 10)
		b = append(b, `"><b>§`...)
		b = strconv.AppendInt(b, int64(r.N), 10)
		b = append(b, `</b> `...)
		b = appendEscaped(b, r.Entry)
		if r.Confidence != "" {
			b = append(b, ` · `...)
			b = appendEscaped(b, r.Confidence)
		}
		b = append(b, r.Cites...)
		b = append(b, '\n')
	}
	g.HTML.Refs = take()
}

// appendReason appends a numbered reason as an item of a list.
func appendReason(b []byte, r *GridReason) []byte {
	b = append(b, `<li id="r`...)
	b = strconv.AppendInt(b, int64(r.N), 10)
	b = append(b, `"><b>`...)
	b = strconv.AppendInt(b, int64(r.N), 10)
	b = append(b, `</b> `...)
	b = appendReasonText(b, r)
	return append(b, '\n')
}

// appendReasonText appends a reason's level, words, columns and entries.
func appendReasonText(b []byte, r *GridReason) []byte {
	if r.Bare {
		b = append(b, r.HTML...)
	} else {
		b = append(b, `<span class="v `...)
		b = appendEscaped(b, r.Class)
		b = append(b, `">`...)
		b = appendEscaped(b, r.Mark)
		b = append(b, `</span> `...)
		b = append(b, r.HTML...)
		if r.Likely != "" {
			b = appendLikely(b, r.Likely)
		}
	}
	if r.Stacks != "" {
		b = append(b, ` <span class="meta">(with `...)
		b = appendEscaped(b, r.Stacks)
		b = append(b, `)</span>`...)
	}
	for _, o := range r.Own {
		b = append(b, ` <span class="meta">—`...)
		if named := namesEntry(r.text, o.Entry); !named || o.Confidence == "" {
			b = append(b, ' ')
			b = appendEscaped(b, o.Entry)
			if o.Confidence != "" {
				b = append(b, ` ·`...)
			}
		}
		if o.Confidence != "" {
			b = append(b, ' ')
			b = appendEscaped(b, o.Confidence)
		}
		b = append(b, `</span>`...)
		b = append(b, o.Cites...)
	}
	for _, n := range r.Refs {
		b = append(b, ` <a href="#m`...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, `">§`...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, `</a>`...)
	}
	return b
}

// sameName is how many bytes of the label of group[k] are left out: the
// distro's name, when the distro drawn before it in the row is of its
// family and has the same name (GridRow.Name).
func sameName(group []GridRow, k int) int {
	if k == 0 {
		return 0
	}
	d, p := &group[k], &group[k-1]
	n := d.Name
	if n == 0 || n != p.Name || d.Family != p.Family || d.Distro.Label[:n] != p.Distro.Label[:n] {
		return 0
	}
	return n
}

// namesEntry reports whether a reason's text already names the matrix
// entry it rests on: "the distro_support row for centos 9: …" names
// "distro_support centos 9" (and not "distro_support centos 9.1" or
// "distro_support centos"), so the entry's line gives its confidence only.
// The engine words it with verdict.RowLead.
func namesEntry(text, entry string) bool {
	lead := verdict.RowLead(entry)
	if lead == "" {
		return false
	}
	_, after, found := strings.Cut(text, lead)
	return found && (after == "" || after[0] == ':')
}

func appendLikely(b []byte, likely string) []byte {
	b = append(b, ` <span class="meta">(likely `...)
	b = appendEscaped(b, likely)
	return append(b, `: a hint)</span>`...)
}

// ownedHTML is b as HTML without a copy, as strings.Builder gives its
// bytes: the caller hands b over and never writes it again. A page's
// grid and a distro page's inbox list are each hundreds of KB.
func ownedHTML(b []byte) template.HTML {
	return template.HTML(unsafe.String(unsafe.SliceData(b), len(b)))
}

// appendEscaped appends s escaped as html/template escapes a value in
// text or in a quoted attribute: " & ' + < > and NUL.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case 0:
			rep = "\uFFFD"
		case '"':
			rep = "&#34;"
		case '&':
			rep = "&amp;"
		case '\'':
			rep = "&#39;"
		case '+':
			rep = "&#43;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		default:
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, rep...)
		start = i + 1
	}
	return append(b, s[start:]...)
}

// appendURL appends s as html/template writes a value that starts a
// quoted URL attribute (href="{{.}}"): a scheme other than http, https
// or mailto is replaced by #ZgotmplZ, each byte a URL does not keep as
// it is written %xx, and the result escaped as an attribute.
func appendURL(b []byte, s string) []byte {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		return append(b, "#ZgotmplZ"...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~!#$*,/:;=?@[]", c) >= 0,
			c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]): // an escape already (html/template's test)
			b = append(b, c)
		case c == '&':
			b = append(b, "&amp;"...)
		case c == '+':
			b = append(b, "&#43;"...)
		default:
			b = appendPercent(b, c)
		}
	}
	return b
}

// appendPercent appends c as %xx, in html/template's lower-case hex.
func appendPercent(b []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	return append(b, '%', hex[c>>4], hex[c&15])
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// appendURLPart appends s as html/template escapes a value in a URL's
// query or fragment: each byte but A-Z a-z 0-9 - . _ ~ as %xx.
func appendURLPart(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b = append(b, c)
		default:
			b = appendPercent(b, c)
		}
	}
	return b
}
