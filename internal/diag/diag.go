package diag

import (
	"errors"
	"fmt"
	"github.com/rocekb/rocekb/internal/visible"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Severity orders problems: errors fail a run, warnings do not.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Problem is one thing wrong in a file a person wrote.
// Line and Col are 1-based; zero means unknown.
type Problem struct {
	File     string
	Line     int
	Col      int
	Severity Severity
	Msg      string
}

// String formats the problem as file:line:col: msg, the form editors jump to.
// Warnings carry a "warning: " prefix before the message. A file name or a
// message that quotes a record holds what anyone wrote there: its control,
// bidi and zero-width characters are escaped, never printed raw.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(visible.Escape(p.File))
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
	}
	b.WriteString(": ")
	if p.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(visible.Escape(p.Msg))
	return b.String()
}

// List collects problems so that all of them are reported together.
type List []Problem

// Add appends an error at a position.
func (l *List) Add(file string, pos Pos, format string, args ...any) {
	*l = append(*l, Problem{File: file, Line: pos.Line, Col: pos.Col, Severity: Error, Msg: fmt.Sprintf(format, args...)})
}

// Warn appends a warning at a position.
func (l *List) Warn(file string, pos Pos, format string, args ...any) {
	*l = append(*l, Problem{File: file, Line: pos.Line, Col: pos.Col, Severity: Warning, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders problems by file, line, column and message, and drops exact duplicates.
func (l *List) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Msg < b.Msg
	})
	out := s[:0]
	for i, p := range s {
		if i > 0 && p == s[i-1] {
			continue
		}
		out = append(out, p)
	}
	*l = out
}

// Errors counts problems of severity Error.
func (l List) Errors() int {
	n := 0
	for _, p := range l {
		if p.Severity == Error {
			n++
		}
	}
	return n
}

// Warnings counts problems of severity Warning.
func (l List) Warnings() int { return len(l) - l.Errors() }

// String renders one problem per line.
func (l List) String() string {
	var b strings.Builder
	for _, p := range l {
		b.WriteString(p.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Err returns nil when the list holds no errors, or an *Error wrapping the
// whole sorted list (warnings included) otherwise.
func (l List) Err() error {
	if l.Errors() == 0 {
		return nil
	}
	c := append(List(nil), l...)
	c.Sort()
	return &ListError{Problems: c}
}

// ListError is the error form of a List with at least one error in it.
type ListError struct{ Problems List }

func (e *ListError) Error() string { return strings.TrimSuffix(e.Problems.String(), "\n") }

// AsList extracts the problems from an error made by List.Err.
func AsList(err error) (List, bool) {
	var le *ListError
	if errors.As(err, &le) {
		return le.Problems, true
	}
	return nil, false
}

// MaxQuoted bounds the bytes of a value Quote shows: a message that echoes
// a 20,000-byte value floods the terminal and hides the other problems.
const MaxQuoted = 80

// Quote quotes a value a person gave for a message, as strconv.Quote
// does, cut to MaxQuoted bytes (whole characters) with its length after
// it when longer.
func Quote(v string) string {
	if len(v) <= MaxQuoted {
		return strconv.Quote(v)
	}
	cut := MaxQuoted
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return strconv.Quote(v[:cut]) + "… (" + strconv.Itoa(len(v)) + " bytes)"
}
