package ls

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Entry is one file a listing names.
type Entry struct {
	Name string // the file's name; a symlink's own name
	// Type is the first letter of the long form's mode: '-' a file, 'd' a
	// folder, 'l' a symlink, 'c' a character device, 'b' a block device,
	// 'p' a pipe, 's' a socket; 0 in a short listing, which prints none.
	Type   byte
	Mode   string // the long form's mode as printed, e.g. "crw-rw-rw-"; "" in a short listing
	Major  *int   // a device's major number ("231, 192")
	Minor  *int   // a device's minor number
	Target string // a symlink's target, after " -> "
	Line   int    // 1-based line of the listing
}

// Dir is one folder of a listing: the one ls was asked for, or one of
// several, each after its "<path>:" header.
type Dir struct {
	Path    string // the header's path; "" for a listing of one folder, which prints none
	Entries []Entry
}

// Problem is one of ls's own error lines.
type Problem struct {
	Path string // the path it names
	Text string // the line, trimmed
	// Missing: "No such file or directory" (ENOENT): the folder does not
	// exist where ls ran.
	Missing bool
	Line    int
}

// Listing is what one ls printed.
type Listing struct {
	Dirs     []Dir
	Problems []Problem
}

// MaxEntries bounds the entries kept of one listing.
const MaxEntries = 4096

var (
	// modeRE is a long listing's mode: the type letter, nine permission
	// letters, and GNU ls's "." (SELinux context) or "+" (ACL) mark.
	modeRE = regexp.MustCompile(`^[-bcdlpsDn?][-rwxsStTlL]{9}[.+@]?$`)
	// deviceRE is a device's "major, minor" in place of its size.
	deviceRE = regexp.MustCompile(`^ (\d+),\s*(\d+) `)
	totalRE  = regexp.MustCompile(`^total \d+(?:[.,]\d+)?[KMGTP]?$`)
	// errRE is ls's error line: "ls: cannot access '/x': No such file or
	// directory" (coreutils 8.25 on quote the path; older ones do not),
	// "ls: cannot open directory '/x': Permission denied".
	errRE = regexp.MustCompile(`^(?:/\S*/)?ls: (?:cannot access|cannot open directory|cannot read directory) '?([^':]+)'?: (.+)$`)
)

// Parse reads an ls listing.
func Parse(r io.Reader) (Listing, error) {
	var out Listing
	cur := -1 // index of the folder being read
	n, kept := 0, 0
	dir := func() *Dir {
		if cur < 0 {
			out.Dirs = append(out.Dirs, Dir{})
			cur = len(out.Dirs) - 1
		}
		return &out.Dirs[cur]
	}
	err := lines.Each(r, func(raw string) {
		n++
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			return
		case errRE.MatchString(t):
			m := errRE.FindStringSubmatch(t)
			out.Problems = append(out.Problems, Problem{Path: m[1], Text: t, Missing: strings.Contains(m[2], "No such file or directory"), Line: n})
			return
		case totalRE.MatchString(t):
			return
		case strings.HasSuffix(t, ":") && !strings.ContainsAny(t, " \t") && len(t) > 1:
			out.Dirs = append(out.Dirs, Dir{Path: strings.TrimSuffix(t, ":")})
			cur = len(out.Dirs) - 1
			return
		}
		f := strings.Fields(t)
		if promptLine(f) {
			return
		}
		if modeRE.MatchString(f[0]) {
			if e, ok := long(t, f); ok && kept < MaxEntries {
				e.Line = n
				d := dir()
				d.Entries = append(d.Entries, e)
				kept++
			}
			return
		}
		for _, name := range f {
			name = strings.TrimRight(name, "/@")
			if name == "" || name == "." || name == ".." || kept >= MaxEntries {
				continue
			}
			d := dir()
			d.Entries = append(d.Entries, Entry{Name: name, Line: n})
			kept++
		}
	})
	return out, err
}

// long reads one line of a long listing: mode, links, owner, group, size
// or "major, minor", the date in whatever form the locale and
// --time-style give it, then the name (" -> target" for a symlink). The
// folders this reads hold no names with spaces, so the name is the last
// word before the arrow.
func long(t string, f []string) (Entry, bool) {
	e := Entry{Mode: f[0], Type: f[0][0]}
	if e.Type == 'D' || e.Type == 'n' {
		e.Type = '-'
	}
	head := t
	if i := strings.Index(t, " -> "); i >= 0 && e.Type == 'l' {
		head, e.Target = t[:i], strings.TrimSpace(t[i+4:])
	}
	w := strings.Fields(head)
	// Mode, links, owner, group, then the size ("major, minor" for a
	// device, one or two words); after it a date of at least two words
	// and the name. A line cut before its name (a truncated paste) is no
	// entry.
	after := 5
	if e.Type == 'c' || e.Type == 'b' {
		if len(w) < 5 {
			return Entry{}, false
		}
		m := deviceRE.FindStringSubmatch(" " + strings.Join(w[4:], " ") + " ")
		if m == nil {
			return Entry{}, false
		}
		e.Major, e.Minor = atoi(m[1]), atoi(m[2])
		after = 6
		if !strings.HasSuffix(w[4], ",") {
			after = 5 // "231,192": one word
		}
	}
	if len(w) < after+3 {
		return Entry{}, false
	}
	e.Name = strings.TrimRight(w[len(w)-1], "/@=|*")
	if e.Name == "." || e.Name == ".." || e.Name == "" {
		return Entry{}, false
	}
	return e, true
}

// promptLine reports whether a line is the shell prompt that ran ls or its
// ll alias ("$ ls /dev/infiniband/", "root@pod:/# ll /dev/infiniband"),
// which a pasted listing keeps above its output.
func promptLine(f []string) bool {
	for i := 1; i < len(f) && i < 4; i++ {
		if p := f[i-1]; (f[i] == "ls" || f[i] == "ll") && (strings.HasSuffix(p, "$") || strings.HasSuffix(p, "#") || p == "sudo") {
			return true
		}
	}
	return false
}

func atoi(s string) *int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return &v
}

// Folder returns the folder of the listing with the given path (a header
// may end in "/", a path may be given with one), or the listing's one
// folder when it printed no header.
func (l Listing) Folder(path string) (Dir, bool) {
	want := strings.TrimRight(path, "/")
	for _, d := range l.Dirs {
		if strings.TrimRight(d.Path, "/") == want {
			return d, true
		}
	}
	if len(l.Dirs) == 1 && l.Dirs[0].Path == "" {
		return l.Dirs[0], true
	}
	return Dir{}, false
}

// Missing reports whether ls said the path does not exist.
func (l Listing) Missing(path string) (Problem, bool) {
	want := strings.TrimRight(path, "/")
	for _, p := range l.Problems {
		if p.Missing && strings.TrimRight(p.Path, "/") == want {
			return p, true
		}
	}
	return Problem{}, false
}
