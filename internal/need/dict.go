package need

import (
	"strconv"
	"strings"
)

// A Dict finds every one of a fixed set of literals in a text in one
// pass, instead of one substring search per literal: a classifier that
// gates dozens of patterns on the literals they need scans each line once
// (Scan) and then asks which literals it holds (Hits.Has).
//
// Each position of the text is looked up by its first two bytes in a
// table of the literals' first two bytes; only the few literals that
// begin with that pair are compared there.
type Dict struct {
	lits []string
	ids  map[string]int
	// pair[a|b<<8] is 1 + the index in groups of the literals that begin
	// with the bytes a, b; 0 when none does. any has the same bit set
	// where pair is not 0: 8 KiB that stay in the fastest cache, where
	// pair (128 KiB) does not.
	pair   []uint16
	any    [1 << 10]uint64
	groups [][]entry
}

// An entry is a literal of a group: its first (up to) eight bytes, as a
// little-endian word under mask, are compared with the eight bytes at a
// place at once; only a longer literal's tail is compared byte by byte.
type entry struct {
	head, mask uint64
	id         int32
}

// NewDict makes the Dict of lits, lower-case ASCII of at least two
// bytes; the ID of a literal is the index of its first place in lits.
func NewDict(lits []string) *Dict {
	d := &Dict{lits: lits, ids: make(map[string]int, len(lits)), pair: make([]uint16, 1<<16), groups: [][]entry{nil}}
	for id, w := range lits {
		if len(w) < 2 || !ASCII(w) || w != strings.ToLower(w) || strings.IndexByte(w, 0) >= 0 {
			panic("need: NewDict: " + strconv.Quote(w) + " is not a lower-case ASCII literal of two bytes or more")
		}
		if _, dup := d.ids[w]; dup {
			continue
		}
		d.ids[w] = id
		e := entry{id: int32(id)}
		for i := 0; i < len(w) && i < 8; i++ {
			e.head |= uint64(w[i]) << (8 * i)
			e.mask |= 0xff << (8 * i)
		}
		k := int(w[0]) | int(w[1])<<8
		d.any[k>>6] |= 1 << (k & 63)
		slot := &d.pair[k]
		if *slot == 0 {
			d.groups = append(d.groups, nil)
			*slot = uint16(len(d.groups) - 1)
		}
		d.groups[*slot] = append(d.groups[*slot], e)
	}
	if len(d.groups) > 1<<16 {
		panic("need: NewDict: too many literals")
	}
	return d
}

// ID is the ID of the literal w, which must be one of the Dict's.
func (d *Dict) ID(w string) int {
	id, ok := d.ids[w]
	if !ok {
		panic("need: " + w + " is not in the Dict")
	}
	return id
}

// Len is the number of IDs: one more than the largest.
func (d *Dict) Len() int { return len(d.lits) }

// Hits are the literals of a Dict that one scanned text holds, and where
// the last of each begins. The zero value is ready to use.
type Hits struct {
	last  []int32
	stamp []uint32 // last[id] is this scan's when stamp[id] == gen
	gen   uint32
}

// Scan finds every literal of d in s with its ASCII letters lower-cased
// (for an ASCII s, strings.ToLower(s); other bytes are compared as they
// are), and keeps them in h, forgetting what h held.
func (d *Dict) Scan(h *Hits, s string) {
	if len(h.last) != len(d.lits) {
		h.last, h.stamp, h.gen = make([]int32, len(d.lits)), make([]uint32, len(d.lits)), 0
	}
	h.gen++
	if h.gen == 0 {
		clear(h.stamp)
		h.gen = 1
	}
	// win holds s[i:i+8], little-endian, with zeros past the end (which
	// no literal holds).
	var win uint64
	for j := 0; j < 8 && j < len(s); j++ {
		win |= uint64(foldASCII[s[j]]) << (8 * j)
	}
	for i := 0; i+1 < len(s); i++ {
		if k := win & 0xffff; d.any[k>>6]&(1<<(k&63)) != 0 {
			for _, e := range d.groups[d.pair[k]] {
				if win&e.mask != e.head {
					continue
				}
				if w := d.lits[e.id]; len(w) > 8 && (len(w) > len(s)-i || !foldedEqual(s[i+8:i+len(w)], w[8:])) {
					continue
				}
				h.last[e.id], h.stamp[e.id] = int32(i), h.gen
			}
		}
		win >>= 8
		if i+8 < len(s) {
			win |= uint64(foldASCII[s[i+8]]) << 56
		}
	}
}

// foldASCII maps each ASCII capital to its small letter, and every other
// byte to itself.
var foldASCII = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			t[c] = byte(c) + 'a' - 'A'
		}
	}
	return t
}()

// foldedEqual reports whether s with its ASCII letters lower-cased is w.
func foldedEqual(s, w string) bool {
	for i := 0; i < len(w); i++ {
		if foldASCII[s[i]] != w[i] {
			return false
		}
	}
	return true
}

// Has reports whether the scanned text holds the literal id at from or
// after it: for a text t, whether t[from:] holds it.
func (h *Hits) Has(id, from int) bool {
	return h.stamp[id] == h.gen && int(h.last[id]) >= from
}

// HasAny reports whether the scanned text holds any of the literals ids
// at from or after it.
func (h *Hits) HasAny(ids []int, from int) bool {
	for _, id := range ids {
		if h.stamp[id] == h.gen && int(h.last[id]) >= from {
			return true
		}
	}
	return false
}
