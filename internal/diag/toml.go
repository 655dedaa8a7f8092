package diag

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Pos is a 1-based line and column in a file.
type Pos struct{ Line, Col int }

// Locator maps TOML key paths to where they were written. Paths use dots,
// with the element number of an array of tables as its own segment:
// "adapter.3.pci" is the pci key of the fourth [[adapter]].
//
// BurntSushi/toml keeps key positions private, so the locator reads the
// source lines itself. It understands table headers, arrays of tables and
// dotted or quoted keys; keys inside multi-line values are not indexed.
//
// The index is built on first use: DecodeTOML returns a Locator for every
// file, but most files decode cleanly and most callers never ask it
// (indexing every host record was 15% of a fleet build's CPU). It holds
// the table headers only; the keys of a table are read from its lines
// when a path in it is first asked (the matrix asks where each entry was
// written, and where a key is only for a lint problem), and Find reads
// the whole source again, as only misspelt keys ask it.
type Locator struct {
	src       []byte
	once      sync.Once
	tables    []table        // tables[0] is the root table, then every header in the order written
	byPath    map[string]int // header path → its first table
	mu        sync.Mutex     // guards each table's keys
	plainOnce sync.Once
	plain     map[string][]Pos // path with array indexes removed → every occurrence, made for Find
}

// table is a table header and where its lines start.
type table struct {
	pos  Pos
	body int // offset of the line after the header
	next int // next table written with the same path, or 0
	// keys maps each key path under the table, relative to it, to where
	// it was first written; read when first asked.
	keys map[string]Pos
}

// NewLocator indexes the keys in a TOML document.
func NewLocator(src []byte) *Locator {
	l := LazyLocator(src)
	l.once.Do(l.index)
	return l
}

// LazyLocator returns a Locator that indexes src when first asked.
func LazyLocator(src []byte) *Locator { return &Locator{src: src} }

// index reads the table headers.
func (l *Locator) index() {
	// Headers mostly start a line: count those for the room to keep.
	n := bytes.Count(l.src, []byte("\n[")) + 1
	l.tables = append(make([]table, 0, n+1), table{})
	l.byPath = make(map[string]int, n)
	var h headers
	sc := scanner{src: l.src}
	for {
		text, p, eq, ok := sc.next()
		if !ok {
			break
		}
		if eq >= 0 {
			continue // keys are read per table, when asked
		}
		p = h.read(text, p)
		n := len(l.tables)
		l.tables = append(l.tables, table{pos: p, body: sc.off})
		first, seen := l.byPath[string(h.table.buf)]
		if !seen {
			l.byPath[string(h.table.buf)] = n
			continue
		}
		for l.tables[first].next != 0 {
			first = l.tables[first].next
		}
		l.tables[first].next = n
	}
}

// keysOf returns the key paths under table i, reading them when first asked.
func (l *Locator) keysOf(i int) map[string]Pos {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := &l.tables[i]
	if t.keys != nil {
		return t.keys
	}
	t.keys = map[string]Pos{}
	var key path
	sc := scanner{src: l.src, off: t.body, line: t.pos.Line}
	for {
		text, p, eq, ok := sc.next()
		if !ok || eq < 0 {
			return t.keys
		}
		key.reset()
		key.appendKey(text[:eq])
		if _, seen := t.keys[string(key.buf)]; !seen {
			t.keys[string(key.buf)] = p
		}
	}
}

// at returns where path was first written, as a header or as a key under
// the root table or under a table whose header path is a prefix of it.
func (l *Locator) at(path string) (Pos, bool) {
	best, found := Pos{}, false
	consider := func(p Pos, ok bool) {
		if ok && (!found || p.Line < best.Line) {
			best, found = p, true
		}
	}
	if i, ok := l.byPath[path]; ok {
		consider(l.tables[i].pos, true)
	}
	p, ok := l.keysOf(0)[path]
	consider(p, ok)
	for d := 0; d < len(path); d++ {
		if path[d] != '.' {
			continue
		}
		for i, ok := l.byPath[path[:d]]; ok && i != 0; i = l.tables[i].next {
			p, ok := l.keysOf(i)[path[d+1:]]
			consider(p, ok)
		}
	}
	return best, found
}

// Pos returns where a path was written. A path that was not written falls
// back to its nearest written parent, so a missing key points at its table.
func (l *Locator) Pos(path string) Pos {
	l.once.Do(l.index)
	for path != "" {
		if p, ok := l.at(path); ok {
			return p
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return Pos{}
}

// Find returns every position of a path given without array indexes, in
// the order they were written.
func (l *Locator) Find(plain string) []Pos {
	l.plainOnce.Do(func() {
		l.plain = map[string][]Pos{}
		var h headers
		var key path
		add := func(p Pos, parts ...*path) {
			var segs []string
			for _, pt := range parts {
				for i := range pt.ends {
					if s := string(pt.seg(i)); !isIndex(s) {
						segs = append(segs, s)
					}
				}
			}
			k := strings.Join(segs, ".")
			l.plain[k] = append(l.plain[k], p)
		}
		sc := scanner{src: l.src}
		for {
			text, p, eq, ok := sc.next()
			if !ok {
				break
			}
			if eq < 0 {
				add(h.read(text, p), &h.table)
				continue
			}
			key.reset()
			key.appendKey(text[:eq])
			add(p, &h.table, &key)
		}
	})
	return l.plain[plain]
}

// headers follows the table headers of a document: the current table's
// path, and how many elements each array of tables has had so far.
type headers struct {
	table, keys path
	counts      map[string]int // array-of-tables path → index in n
	n           []int          // elements seen
}

// read makes the header text (trimmed, from its line) the current table,
// and returns where its path was written.
func (h *headers) read(text []byte, p Pos) Pos {
	if h.counts == nil {
		h.counts = map[string]int{}
	}
	h.table.reset()
	h.keys.reset()
	if bytes.HasPrefix(text, []byte("[[")) {
		h.keys.appendKey(text[2:headerEnd(text)])
		last := len(h.keys.ends) - 1
		h.resolve(last)
		h.table.push(h.keys.seg(last))
		c, ok := h.counts[string(h.table.buf)]
		if !ok {
			c = len(h.n)
			h.counts[string(h.table.buf)] = c
			h.n = append(h.n, 0)
		}
		h.table.pushInt(h.n[c])
		h.n[c]++
		return Pos{p.Line, p.Col + 2}
	}
	h.keys.appendKey(text[1:headerEnd(text)])
	h.resolve(len(h.keys.ends))
	return Pos{p.Line, p.Col + 1}
}

// resolve appends the first n header keys to the table path, with the
// current element number after each prefix that names an array of tables.
func (h *headers) resolve(n int) {
	for i := 0; i < n; i++ {
		h.table.push(h.keys.seg(i))
		if c, ok := h.counts[string(h.table.buf)]; ok {
			h.table.pushInt(h.n[c] - 1)
		}
	}
}

// path is a key path joined with dots in one reused buffer.
type path struct {
	buf  []byte
	ends []int // end of each segment in buf
}

func (p *path) reset() { p.buf, p.ends = p.buf[:0], p.ends[:0] }

// seg returns segment i.
func (p *path) seg(i int) []byte {
	start := 0
	if i > 0 {
		start = p.ends[i-1] + 1
	}
	return p.buf[start:p.ends[i]]
}

func (p *path) push(s []byte) {
	p.sep()
	p.buf = append(p.buf, s...)
	p.ends = append(p.ends, len(p.buf))
}

func (p *path) pushInt(n int) {
	p.sep()
	p.buf = strconv.AppendInt(p.buf, int64(n), 10)
	p.ends = append(p.ends, len(p.buf))
}

func (p *path) sep() {
	if len(p.ends) > 0 {
		p.buf = append(p.buf, '.')
	}
}

// appendKey appends the segments of a dotted TOML key, honouring quotes:
// outside quotes blanks are dropped, and each segment is trimmed.
func (p *path) appendKey(s []byte) {
	p.sep()
	start := len(p.buf)
	end := func() {
		seg := bytes.TrimSpace(p.buf[start:])
		n := copy(p.buf[start:], seg)
		p.buf = p.buf[:start+n]
		p.ends = append(p.ends, len(p.buf))
	}
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				p.buf = append(p.buf, c)
			}
		case c == '"':
			// A basic string: the key is what its escapes spell ("a\"b"
			// is the key a"b), as BurntSushi/toml reports it.
			j := quotedEnd(s, i)
			if j < 0 {
				j = len(s)
			}
			seg := s[i+1 : j]
			if j < len(s) && bytes.IndexByte(seg, '\\') >= 0 {
				if v, err := strconv.Unquote(string(s[i : j+1])); err == nil {
					seg = []byte(v)
				}
			}
			p.buf = append(p.buf, seg...)
			i = j
		case c == '\'':
			quote = c
		case c == '.':
			end()
			p.buf = append(p.buf, '.')
			start = len(p.buf)
		case c == ' ' || c == '\t':
		default:
			p.buf = append(p.buf, c)
		}
	}
	end()
}

// scanner reads a TOML document line by line, skipping blank lines,
// comments, lines that do not parse as a header or key, and the lines of
// multi-line strings and arrays.
type scanner struct {
	src     []byte
	off     int    // offset of the next line
	line    int    // number of the line last read
	inMulti string // closing delimiter of a multi-line string
	depth   int    // open [ of a multi-line array
}

// next returns the next header or key line, trimmed, where it starts, and
// for a key line the index of its = (-1 for a header).
func (s *scanner) next() (text []byte, p Pos, eq int, ok bool) {
	for s.off <= len(s.src) {
		line := s.src[s.off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		s.off += len(line) + 1
		s.line++
		if s.inMulti != "" {
			if bytes.Contains(line, []byte(s.inMulti)) {
				s.inMulti = ""
			}
			continue
		}
		trimmed := bytes.TrimSpace(line)
		col := len(line) - len(bytes.TrimLeft(line, " \t")) + 1
		if s.depth > 0 {
			s.depth += bracketDelta(trimmed)
			continue
		}
		p := Pos{s.line, col}
		switch {
		case len(trimmed) == 0 || trimmed[0] == '#':
			continue
		case trimmed[0] == '[':
			if headerEnd(trimmed) < 0 {
				continue
			}
			return trimmed, p, -1, true
		}
		eq := keyEnd(trimmed)
		if eq < 0 {
			continue
		}
		val := bytes.TrimSpace(trimmed[eq+1:])
		for _, q := range []string{`"""`, `'''`} {
			if bytes.HasPrefix(val, []byte(q)) && !bytes.Contains(val[3:], []byte(q)) {
				s.inMulti = q
			}
		}
		if bytes.HasPrefix(val, []byte("[")) {
			s.depth = max(bracketDelta(val), 0)
		}
		return trimmed, p, eq, true
	}
	return nil, Pos{}, -1, false
}

// DecodeTOML strictly decodes a TOML document into v. Syntax and type errors
// and every unknown key come back as problems with positions. The Locator is
// returned for later semantic checks; it is nil when the syntax is broken.
func DecodeTOML(file string, src []byte, v any) (*Locator, List) {
	var probs List
	// The decoder reads src itself: toml.Decode(string(src)) copied
	// every record once more before the decoder's own copy.
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(v)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) && !strings.HasPrefix(pe.Message, typeErrorPrefix) {
			probs.Add(file, Pos{pe.Position.Line, pe.Position.Col}, "%s", pe.Message)
			return nil, probs
		}
		loc := LazyLocator(src)
		msg := strings.TrimPrefix(err.Error(), "toml: ")
		probs.Add(file, locateDecodeError(loc, msg), "%s", msg)
		return loc, probs
	}
	loc := LazyLocator(src)
	for _, k := range md.Undecoded() {
		plain := join(stripIndexes(k))
		name := k[len(k)-1]
		ps := loc.Find(plain)
		if len(ps) == 0 {
			probs.Add(file, Pos{}, "unknown key %s", Quote(plain))
		}
		for _, p := range ps {
			probs.Add(file, p, "unknown key %s", Quote(name))
		}
	}
	probs.Sort()
	return loc, probs
}

// typeErrorPrefix starts the decoder's words for a value of the wrong type.
const typeErrorPrefix = "incompatible types: "

// TOMLTypeError is the error a toml.Unmarshaler returns for a value of the
// wrong type, in the words BurntSushi/toml's own decoding uses (its
// MetaData.badtype). The decoder gives it the line and key of the value,
// as it gives its own, and DecodeTOML reports both alike: the parser's
// errors never start with these words.
func TOMLTypeError(got any, want string) error {
	return fmt.Errorf(typeErrorPrefix+"TOML value has type %s; destination has type %s",
		strings.ReplaceAll(fmt.Sprintf("%T", got), "interface {}", "any"), want)
}

// locateDecodeError finds the line of a type error such as
// `toml: line 4 (last key "adapter.pci"): incompatible types`.
func locateDecodeError(loc *Locator, msg string) Pos {
	if i := strings.Index(msg, "line "); i >= 0 {
		var n int
		if _, err := fmt.Sscanf(msg[i:], "line %d", &n); err == nil {
			return Pos{Line: n, Col: 1}
		}
	}
	if i := strings.Index(msg, `last key "`); i >= 0 {
		rest := msg[i+len(`last key "`):]
		if j := strings.IndexByte(rest, '"'); j >= 0 {
			if ps := loc.Find(rest[:j]); len(ps) > 0 {
				return ps[0]
			}
		}
	}
	return Pos{}
}

func stripIndexes(path []string) []string {
	var out []string
	for _, s := range path {
		if !isIndex(s) {
			out = append(out, s)
		}
	}
	return out
}

// isIndex reports whether a path segment reads as an element number.
func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func join(p []string) string { return strings.Join(p, ".") }

// keyEnd returns the index of the = that ends a key, or -1.
func keyEnd(s []byte) int {
	if i := outsideQuotes(s, "=#"); i >= 0 && s[i] == '=' {
		return i
	}
	return -1
}

// headerEnd returns the index of the ] closing a table header's key, or -1.
func headerEnd(s []byte) int { return outsideQuotes(s, "]") }

// outsideQuotes returns the index of the first byte of s in set that is
// outside a quoted string, honouring a basic string's escapes, or -1.
func outsideQuotes(s []byte, set string) int {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case strings.IndexByte(set, c) >= 0:
			return i
		}
	}
	return -1
}

// quotedEnd returns the index of the quote closing the basic string that
// opens at s[i], honouring backslash escapes, or -1 if it is not closed.
func quotedEnd(s []byte, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// bracketDelta counts [ minus ] outside strings and comments.
func bracketDelta(s []byte) int {
	d := 0
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return d
		case c == '[':
			d++
		case c == ']':
			d--
		}
	}
	return d
}
