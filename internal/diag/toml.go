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
// (indexing every host record was 15% of a fleet build's CPU).
type Locator struct {
	src       []byte
	once      sync.Once
	pos       map[string]Pos
	written   []written // every key in the order it was written, for Find
	plainOnce sync.Once
	plain     map[string][]Pos // path with array indexes removed → every occurrence, made for Find
}

// written is a key path as the index read it, and where.
type written struct {
	path []string
	pos  Pos
}

// NewLocator indexes the keys in a TOML document.
func NewLocator(src []byte) *Locator {
	l := lazyLocator(src)
	l.once.Do(l.index)
	return l
}

// lazyLocator returns a Locator that indexes src when first asked.
func lazyLocator(src []byte) *Locator { return &Locator{src: src} }

// index reads the source lines into pos and plain.
func (l *Locator) index() {
	src := l.src
	l.src = nil
	l.pos = map[string]Pos{}
	counts := map[string]int{} // array-of-tables path → elements seen
	var table []string         // current header path, indexes included
	inMulti := ""              // closing delimiter of a multi-line string
	depth := 0                 // open [ of a multi-line array
	for i, line := range strings.Split(string(src), "\n") {
		lineNo := i + 1
		if inMulti != "" {
			if strings.Contains(line, inMulti) {
				inMulti = ""
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		col := len(line) - len(strings.TrimLeft(line, " \t")) + 1
		if depth > 0 {
			depth += bracketDelta(trimmed)
			continue
		}
		switch {
		case trimmed == "" || trimmed[0] == '#':
			continue
		case strings.HasPrefix(trimmed, "[["):
			end := strings.Index(trimmed, "]]")
			if end < 0 {
				continue
			}
			keys := splitKey(trimmed[2:end])
			table = l.resolve(keys[:len(keys)-1], counts)
			base := join(append(table, keys[len(keys)-1]))
			n := counts[base]
			counts[base] = n + 1
			table = append(table, keys[len(keys)-1], strconv.Itoa(n))
			l.record(table, Pos{lineNo, col + 2})
		case trimmed[0] == '[':
			end := strings.Index(trimmed, "]")
			if end < 0 {
				continue
			}
			table = l.resolve(splitKey(trimmed[1:end]), counts)
			l.record(table, Pos{lineNo, col + 1})
		default:
			eq := keyEnd(trimmed)
			if eq < 0 {
				continue
			}
			keys := splitKey(trimmed[:eq])
			full := append(append([]string(nil), table...), keys...)
			l.record(full, Pos{lineNo, col})
			val := strings.TrimSpace(trimmed[eq+1:])
			for _, q := range []string{`"""`, `'''`} {
				if strings.HasPrefix(val, q) && !strings.Contains(val[3:], q) {
					inMulti = q
				}
			}
			if strings.HasPrefix(val, "[") {
				depth = bracketDelta(val)
				if depth < 0 {
					depth = 0
				}
			}
		}
	}
}

// resolve turns header keys into a path, inserting the current element
// number wherever a prefix names an array of tables.
func (l *Locator) resolve(keys []string, counts map[string]int) []string {
	var out []string
	for _, k := range keys {
		out = append(out, k)
		if n, ok := counts[join(out)]; ok {
			out = append(out, strconv.Itoa(n-1))
		}
	}
	return out
}

func (l *Locator) record(path []string, p Pos) {
	key := join(path)
	if _, ok := l.pos[key]; !ok {
		l.pos[key] = p
	}
	l.written = append(l.written, written{path, p})
}

// Pos returns where a path was written. A path that was not written falls
// back to its nearest written parent, so a missing key points at its table.
func (l *Locator) Pos(path string) Pos {
	l.once.Do(l.index)
	for path != "" {
		if p, ok := l.pos[path]; ok {
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
	l.once.Do(l.index)
	l.plainOnce.Do(func() {
		l.plain = map[string][]Pos{}
		for _, w := range l.written {
			k := join(stripIndexes(w.path))
			l.plain[k] = append(l.plain[k], w.pos)
		}
	})
	return l.plain[plain]
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
		if errors.As(err, &pe) {
			probs.Add(file, Pos{pe.Position.Line, pe.Position.Col}, "%s", pe.Message)
			return nil, probs
		}
		loc := lazyLocator(src)
		msg := strings.TrimPrefix(err.Error(), "toml: ")
		probs.Add(file, locateDecodeError(loc, msg), "%s", msg)
		return loc, probs
	}
	loc := lazyLocator(src)
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
		if _, err := strconv.Atoi(s); err == nil {
			continue
		}
		out = append(out, s)
	}
	return out
}

func join(p []string) string { return strings.Join(p, ".") }

// splitKey splits a dotted TOML key, honouring quotes.
func splitKey(s string) []string {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// keyEnd returns the index of the = that ends a key, or -1.
func keyEnd(s string) int {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '=':
			return i
		case c == '#':
			return -1
		}
	}
	return -1
}

// bracketDelta counts [ minus ] outside strings and comments.
func bracketDelta(s string) int {
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
