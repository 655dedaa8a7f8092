package supportconfig

import (
	"io"
	"path"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Section kinds, from the header's word.
const (
	Command = "command"
	Conf    = "conf"
	Log     = "log"
	Other   = "other" // Note, Summary, Entry, Env, ERROR …: read past
)

// Section is one entry of a supportconfig file.
type Section struct {
	Kind  string
	Label string // what the "# " line names: a command line, or a file's path
	Body  string // the lines after the label, ending with a newline each
	Line  int    // 1-based line of the header
	// Missing: the label says "- File not found", or the command was not
	// found ("ERROR: Command not found or not executable").
	Missing bool
}

// headers maps a header's word to its kind.
var headers = map[string]string{"Command": Command, "Configuration File": Conf, "Log File": Log}

// maxBody caps a section's text; a log section is the largest, and the
// snapshot's own per-file cap bounds the file before it is split.
const maxBody = 256 << 20

// Parse splits a supportconfig file into its sections. Lines before the
// first header are not a section; a header without its "# " label line
// names nothing and is read past.
func Parse(r io.Reader) ([]Section, error) {
	var out []Section
	var cur *Section
	var body strings.Builder
	n := 0
	end := func() {
		if cur != nil {
			cur.Body = body.String()
			if cur.Kind == Command && strings.HasPrefix(cur.Body, "ERROR: Command not found or not executable") {
				cur.Missing = true
			}
			out = append(out, *cur)
		}
		cur = nil
		body.Reset()
	}
	labelNext := false
	err := lines.Each(r, func(line string) {
		n++
		if word, ok := header(line); ok {
			end()
			kind, known := headers[word]
			if !known {
				kind = Other
			}
			cur = &Section{Kind: kind, Line: n}
			labelNext = true
			return
		}
		if cur == nil {
			return
		}
		if labelNext {
			labelNext = false
			if label, ok := strings.CutPrefix(line, "# "); ok {
				label = strings.TrimSpace(label)
				if l, found := strings.CutSuffix(label, " - File not found"); found {
					label, cur.Missing = l, true
				}
				if i := strings.Index(label, " - Last "); i > 0 && cur.Kind == Log {
					label = label[:i] // "# /var/log/messages - Last 5000 Lines"
				}
				cur.Label = label
				return
			}
		}
		if body.Len()+len(line) < maxBody {
			body.WriteString(line)
			body.WriteByte('\n')
		}
	})
	end()
	return out, err
}

// header reads "#==[ Word ]===…#" (the trailing "#" may be lost).
func header(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "#==[ ")
	if !ok {
		return "", false
	}
	word, tail, ok := strings.Cut(rest, " ]=")
	return word, ok && strings.Trim(strings.TrimRight(tail, "#"), "=") == ""
}

// CommandLine is a command section's label as the source table writes
// it: the program without its folder ("/sbin/lspci -nn" is "lspci -nn"),
// words separated by one space, and a pipe into sort dropped, since it
// only orders the lines ("/sbin/lsmod | sort" is "lsmod"). Another pipe
// filters the output, so that label is kept whole.
func CommandLine(label string) string {
	if cmd, filter, ok := strings.Cut(label, " | "); ok && strings.TrimSpace(filter) == "sort" {
		label = cmd
	}
	f := strings.Fields(label)
	if len(f) == 0 {
		return ""
	}
	f[0] = path.Base(f[0])
	return strings.Join(f, " ")
}

// FilePath is the snapshot path of a configuration or log section's file
// ("/etc/os-release" is "etc/os-release"), or of the file a command only
// prints ("sort /proc/modules" is "proc/modules"); "" for anything else.
func (s Section) FilePath() string {
	label := s.Label
	if s.Kind == Command {
		rest, ok := strings.CutPrefix(CommandLine(label), "sort ")
		if !ok || strings.Contains(rest, " ") {
			return ""
		}
		label = rest
	}
	if s.Kind == Other || !strings.HasPrefix(label, "/") || strings.ContainsAny(label, " *?") {
		return ""
	}
	p := path.Clean(label)[1:]
	if p == "" || strings.HasPrefix(p, "..") {
		return ""
	}
	return p
}
