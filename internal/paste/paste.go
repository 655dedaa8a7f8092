package paste

import (
	"bufio"
	"bytes"
	"io"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/lines"
	"github.com/rocekb/rocekb/internal/lspci"
	"github.com/rocekb/rocekb/internal/source"
)

// Section is one command output found in a paste.
type Section struct {
	Command string // the source table's command line it is filed as, e.g. "ibv_devinfo -v"
	Path    string // where a capture keeps it: sos_commands/<plugin>/<name>
	Line    int    // the paste's line where the output starts (1-based)
	Lines   int    // how many lines it has
	// Named: the paste names the command (a prompt line or a bare command
	// line); otherwise the output was recognised by what it says.
	Named bool
	// Filter is the pipeline the output went through after its command
	// ("grep mlx" of "lsmod | grep mlx"): it holds only what that let through.
	Filter string
	Cut    int // lines longer than 1 MiB, cut there
	text   strings.Builder
	label  string // the command line each of its lines began with (report-hw), if any
	own    bool   // recognised by a layout only its tool prints (rule.own)
	prose  bool   // named in a code span of the prose before its code block
}

// maxLine bounds one line of a paste; longer ones are cut.
const maxLine = 1 << 20

// Split reads a paste and returns its sections in paste order. Text that
// neither follows a command line nor looks like the output of a known
// tool is dropped; Unknown counts its lines. A line longer than 1 MiB is
// cut there and counted in its section's Cut, not fatal.
func Split(r io.Reader) (secs []*Section, unknown int, err error) {
	br := bufio.NewReaderSize(lines.UTF8(r), 64<<10)
	var cur *Section // a named section, or nil while lines are loose
	var loose []string
	looseCut := 0
	looseStart := 0
	other := false // the loose lines follow a prompt running a command the table does not read
	// heading is a command line with no output yet whose code block has
	// just opened ("show_gids", then ```): the block's output is its.
	// titled is such a one whose block began with a prompt running
	// another name ("# show_gid"): the loose lines after it are its
	// output when they are its row's.
	var heading, titled *Section
	// named is the command a prose line names in a code span ("Output of
	// `uname -r`:"), while only blank lines follow it: a code block that
	// opens then is that command's output.
	var named *command
	flush := func() {
		at := looseStart
		for i, part := range splitLoose(loose) {
			if s := sniff(part); s != nil && (!other || s.own) {
				if i == 0 && titled != nil && row(s.Command) == row(titled.Command) {
					s = titled
					s.text.Reset()
					s.Lines = 0
				} else {
					secs = append(secs, s)
				}
				s.Line = at
				for _, l := range part {
					s.add(l)
				}
				s.Cut += looseCut
				looseCut = 0
			} else {
				for _, l := range part {
					if strings.TrimSpace(l) != "" {
						unknown++
					}
				}
			}
			at += len(part)
		}
		loose, looseCut, other, titled = nil, 0, false, nil
	}
	n, prevBlank := 0, true
	report := false  // a report-hw line was seen: bare "lsmod: …" lines are its too
	escaped := false // a markdown-escaped prompt was seen: "\\[root@h \\~\\]#"
	inFence := false // within a code block (``` or ~~~, <pre>)
	inSpan := false  // within an inline code span that runs over lines
	// rest is what followed a command line on its line, read next as a
	// line of its own: lspci's output joined onto its prompt.
	rest, hasRest := "", false
	for {
		var raw string
		var cut bool
		if hasRest {
			raw, hasRest = rest, false
		} else {
			var rerr error
			raw, cut, rerr = readLine(br)
			if rerr != nil && rerr != io.EOF {
				return secs, unknown, rerr
			}
			if rerr == io.EOF && raw == "" && !cut {
				break
			}
			n++
		}
		line := strings.TrimRight(raw, "\r")
		if escaped = escaped || escapedPrompt.MatchString(line); escaped {
			line = markdownUnescape.Replace(line)
		}
		if !inFence {
			line, inSpan = spanMarks(line, inSpan)
		}
		quoted := unquote(line)
		if i := lspci.DeviceStart(quoted); i > 0 {
			// A chat or a form that removed the line breaks ran lspci's
			// output onto its command line ("$ lspci | grep Mell 3b:00.0
			// Ethernet controller: …"): the command line ends where the
			// first device's line starts.
			if c, ok := commandLine(strings.TrimSpace(quoted[:i]), prevBlank || n == 1); ok && row(c.line) == lspciRow {
				rest, hasRest = quoted[i:], true
				quoted, line = strings.TrimSpace(quoted[:i]), strings.TrimSpace(quoted[:i])
			}
		}
		c, ok := commandLine(quoted, prevBlank || n == 1)
		if !ok && quoted != line {
			c, ok = commandLine(line, prevBlank || n == 1) // "> ibv_devinfo": a > prompt, not a quote
		}
		if !ok && cur != nil && cur.Lines > 0 {
			// A script's commands pasted with their outputs and no prompt
			// or blank line between ("rdma link show", its lines, then
			// "rdma dev"): a line that is another table command to the
			// letter starts its output.
			c, ok = bareNext(quoted, cur.Command)
		}
		if ok {
			if cur == nil {
				flush()
			} else if cur == heading && cur.blank() && cur.Command == c.line {
				// The block repeats its heading behind a prompt: one output.
				secs = slices.DeleteFunc(secs, func(s *Section) bool { return s == cur })
			}
			heading = nil
			cur = &Section{Command: c.line, Path: c.path, Line: n + 1, Named: true, Filter: c.filter}
			secs = append(secs, cur)
			prevBlank = false
			continue
		}
		line = quoted
		if c, rest, ok := labelled(line, report); ok {
			report = true
			// report-hw's form: each line of an output behind its command
			// line and ": " ("lspci -knn: 00:00.0 Host bridge …").
			if cur == nil || cur.label != c.line {
				if cur == nil {
					flush()
				}
				cur = &Section{Command: c.line, Path: c.path, Line: n, Named: true, label: c.line}
				secs = append(secs, cur)
			}
			cur.add(rest)
			prevBlank = false
			continue
		}
		if fence.MatchString(line) {
			// A code fence (``` or ~~~ of markdown, <pre> of HTML) bounds
			// what a poster pasted: it closes the output before it, loose
			// lines are read on their own, and a bare command line may
			// follow it as after a blank line. It is no line of output.
			// A command line heading a block (a blank line or none
			// between) keeps it open: the block is its output.
			opening := !inFence
			inFence = !inFence
			switch {
			case cur == nil && opening && named != nil:
				flush()
				cur = &Section{Command: named.line, Path: named.path, Line: n + 1, Named: true, Filter: named.filter, prose: true}
				secs = append(secs, cur)
			case cur == nil:
				flush()
			case opening && cur.Named && cur.label == "" && cur.blank():
				cur.text.Reset()
				cur.Lines, cur.Line = 0, n+1
			case cur.Lines > 0:
				cur = nil
			}
			heading, named = nil, nil
			if opening && cur != nil && cur.Lines == 0 {
				heading = cur
			}
			prevBlank = true
			continue
		}
		if strings.TrimSpace(line) != "" {
			named = nil
			if cur == nil && !inFence {
				named = proseCommand(line)
			}
		}
		if otherPrompt(line) && !(cur != nil && hashComments(cur.Path) && strings.HasPrefix(strings.TrimSpace(line), "#")) {
			// A prompt running some other command (ls, cat a file the
			// table does not read, an alias or a mistyped name): its
			// output is not the last command's. It is read as lines with
			// no command line, by what they say, when they are in a
			// layout only their tool prints (show_gids's table after
			// "show_gid"); other text ("CentOS Linux release" among yum's
			// lines) is left out.
			flush()
			if cur != nil && cur == heading && cur.blank() {
				titled = cur
			}
			cur, other, heading = nil, true, nil
			unknown++
			continue
		}
		if cur != nil && cur.label == "" && cur.Lines > 0 && reKernelLine.MatchString(line) && row(cur.Command) != kernelLogRow {
			// A kernel log line is no other tool's output: a log pasted
			// after an output with no command line of its own ("Here is
			// the error log:" after lspci's lines) is read as loose lines,
			// by what they say.
			cur = nil
		}
		prevBlank = strings.TrimSpace(line) == ""
		if cur != nil {
			if cut {
				cur.Cut++
			}
			cur.add(line)
			if cur.Path == "" && !prevBlank {
				unknown++
			}
			continue
		}
		if len(loose) == 0 {
			looseStart = n
		}
		if cut {
			looseCut++
		}
		loose = append(loose, unmark(line))
	}
	if cur == nil {
		flush()
	}
	kept := secs[:0]
	for _, s := range secs {
		if s.prose && s.blank() {
			// The block the prose named ran its commands behind their
			// own prompts: their sections hold the output.
			continue
		}
		if s.Named && s.missing() {
			// The shell found no such command: the output is absent,
			// not an empty one.
			unknown += s.Lines
			continue
		}
		kept = append(kept, s)
	}
	return kept, unknown, nil
}

// kernelLogRow is the source table's row of the kernel log (dmesg,
// journalctl -k, the syslog files); lspciRow lspci's.
var (
	kernelLogRow = row("dmesg")
	lspciRow     = row("lspci")
)

// blank reports whether the section has no output but blank lines.
func (s *Section) blank() bool {
	return strings.TrimSpace(s.text.String()) == ""
}

// row is the source table's row a command line is filed under (its
// tool's name), or the line itself when no row has it.
func row(cmdline string) string {
	if t, ok := source.Of(source.Cmd(cmdline)); ok {
		return t.Name
	}
	return cmdline
}

// missing reports whether the section's lines are a shell's "command not
// found" and nothing else.
func (s *Section) missing() bool {
	seen := false
	for _, l := range strings.Split(s.text.String(), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !shellError(l) {
			return false
		}
		seen = true
	}
	return seen
}

// codeSpans matches each markdown code span of a line: `ibv_devinfo -v`.
var codeSpans = regexp.MustCompile("`([^`]+)`")

// atxHeading is a markdown heading of level 2 to 6 ("### rdma link"); a
// lone '#' is a root prompt. headingNote is a note after the heading's
// command: in parentheses after a space, or in full-width ones ("ip -br
// link（网络接口总览）").
var (
	atxHeading  = regexp.MustCompile(`^\s{0,3}#{2,6}\s+(.+?)\s*#*\s*$`)
	headingNote = regexp.MustCompile(`(?:\s+\([^()]*\)|\s*（[^（）]*）)$`)
)

// proseCommand is the one table command a line of prose names in a code
// span ("Output of `uname -r`:", "and `lsmod | grep mlx` shows"), or that
// a markdown heading is ("### lsmod | grep -i -E 'rxe|mlx5'（RDMA 相关内核模块）",
// a report's heading over each command's block), or nil.
func proseCommand(line string) *command {
	if m := atxHeading.FindStringSubmatch(line); m != nil && !strings.Contains(m[1], "`") {
		if c, ok := commandLine(headingNote.ReplaceAllString(m[1], ""), true); ok {
			return &c
		}
		return nil
	}
	var found *command
	for _, m := range codeSpans.FindAllStringSubmatch(line, -1) {
		span := strings.TrimSuffix(strings.TrimSpace(m[1]), ":")
		if !prompt.MatchString(span) {
			// A code span is code, as a prompt says: a command in it may
			// name its device ("`ibstat mlx5_0` on c1"), where a bare
			// line must be the table's to the letter.
			span = "$ " + span
		}
		c, ok := commandLine(span, true)
		if !ok {
			continue
		}
		if found != nil && found.line != c.line {
			return nil // two commands: which one the block is is not said
		}
		found = &c
	}
	return found
}

// readLine reads one line without its newline, keeping at most maxLine
// bytes of it (cut reports that it was longer): a paste of one huge line
// is read, not refused, and never buffered whole.
func readLine(br *bufio.Reader) (line string, cut bool, err error) {
	var b []byte
	n := 0 // bytes of the line, its newline included
	for {
		frag, err := br.ReadSlice('\n')
		n += len(frag)
		if keep := maxLine + 1 - len(b); keep > 0 {
			b = append(b, frag[:min(len(frag), keep)]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil {
			n-- // the newline
		}
		b = bytes.TrimSuffix(b, []byte("\n"))
		return string(b[:min(len(b), maxLine)]), n > maxLine, err
	}
}

func (s *Section) add(line string) {
	s.text.WriteString(line)
	s.text.WriteByte('\n')
	s.Lines++
}

// Text is the section's output.
func (s *Section) Text() string { return s.text.String() }

// FS lays the sections out as a capture. Sections filed at one path (two
// dmesg excerpts) are joined in paste order.
func FS(secs []*Section) fstest.MapFS {
	out := fstest.MapFS{}
	for _, s := range secs {
		f := out[s.Path]
		if f == nil {
			f = &fstest.MapFile{Mode: 0o644}
			out[s.Path] = f
		}
		f.Data = append(f.Data, s.Text()...)
	}
	return out
}

// command is a command of the source table with where a capture keeps it.
// command is a table command a paste runs, where a capture keeps its
// output, and the pipeline its output went through ("grep mlx").
type command struct{ line, path, filter string }

var (
	// prompt matches the shell prompts people paste: user@host:~$,
	// [root@host ~]#, a bare $ or #, and >, after a virtualenv or conda
	// environment's "(name) ", zsh's ❯, and the shell's own name and
	// version, bash's default PS1 "\s-\v\$ " where none is set (a
	// container, sudo -s, a login as su: "bash-5.1$ ", "sh-4.4# ",
	// "-bash-4.2$ "), and SUSE's default PS1, "host:~ # " for root and
	// "user@host:~> " for others (/etc/bash.bashrc of SLES and openSUSE:
	// "\h:\w # ", "\u@\h:\w> "), whose folder starts with ~ or /, and
	// a PS1 of the working folder alone under home ("\w\$ ": "~$ ",
	// "~/src$ "), and user@host then the folder after a space
	// ("root@clr-19bebbac… ~ # ", a Clear Linux guest's, intel/nemu#82).
	prompt = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#]*|\s+[~/][^\s$#]*)?\s*[$#]|[\w.-]+@[\w.-]+:[~/][^\s$#>]*>|[\w.-]+:[~/][^\s$#>]*\s#|\[[^\]]{1,80}\]\s*[$#]|-?(?:ba|da|z|k)?sh-\d+(?:\.\d+)*[$#]|~[\w./-]*[$#]|[$#>❯])\s+`)
	// fence matches a line that opens or closes a code block.
	fence = regexp.MustCompile(`^\s*(?:(?:` + "```" + `|~~~)[\w+-]*|</?pre>)\s*$`)
	// escapedPrompt is a [user@host dir]# prompt as a converter to markdown
	// writes it, every bracket and ~ escaped: such a paste has its text
	// escaped throughout ("x86\\_64", "\\[ConnectX-6 Dx\\]").
	escapedPrompt = regexp.MustCompile(`^\s*\\\[[^\]]{1,80}\\\]\s*[$#]`)
	// markdownUnescape undoes markdown's backslash escapes of punctuation.
	markdownUnescape = strings.NewReplacer(`\\`, `\`, "\\`", "`", `\*`, `*`, `\_`, `_`, `\{`, `{`, `\}`, `}`,
		`\[`, `[`, `\]`, `]`, `\(`, `(`, `\)`, `)`, `\#`, `#`, `\+`, `+`, `\-`, `-`, `\.`, `.`, `\!`, `!`,
		`\|`, `|`, `\<`, `<`, `\>`, `>`, `\~`, `~`)
	// glued matches a # or $ prompt with no space before its command.
	glued = regexp.MustCompile(`^\s*[#$]([\w./-]+)(?:\s|$)`)
	// shellComment matches a shell comment a poster put after a command
	// ("   # ConnectX-8 rail"); "#1 SMP" of a uname line is none.
	shellComment = regexp.MustCompile(`\s#(?:\s.*)?$`)
	// shellErrorRE matches a shell's (bash, sh, dash, zsh, ksh) or sudo's
	// "command not found".
	shellErrorRE = regexp.MustCompile(`^(?:-?(?:ba|da|z|k)?sh|sudo)(?:: line \d+|: \d+)?: (?:[^:\s]+: (?:command )?not found|command not found: \S+)$`)
	// listItem matches a markdown list item's marker ("- ", "* ", "+ ",
	// "1. "), indented or not.
	listItem = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,2}\.)\s+`)
	// codeSpan matches a line that is one markdown inline code span.
	codeSpan = regexp.MustCompile("^\\s*`([^`]+)`\\s*$")
	// quote matches the quote marks a mail reply puts before each line.
	quote = regexp.MustCompile(`^(?:>[ \t]?)+`)
	// comment matches a C block comment's leader: "/*", "*/" or " * "
	// (a lone "*" too), and one space or tab after it.
	comment = regexp.MustCompile(`^\s*(?:/\*+|\*+/|\*)(?:[ \t]|$)`)
	// mlxconfigMark is mlxconfig's mark of a modified parameter: a "*"
	// in the first column, then the run of spaces that aligns the name
	// ("*        ROCE_CONTROL   …"). A C comment's leader is " * " with
	// one space after it; this line is the query's, not a comment.
	mlxconfigMark = regexp.MustCompile(`^\*[ \t]{2,}[A-Z][A-Z0-9]*_[A-Za-z0-9_]*(?:[ \t]|$)`)
	// binaries are the first words of the table's command lines.
	binaries = func() map[string]bool {
		m := map[string]bool{}
		for _, t := range source.Tools {
			for _, c := range t.Commands {
				m[strings.Fields(c.Line)[0]] = true
			}
		}
		return m
	}()
)

// labelled reports whether a line is one of an output that report-hw
// (Debian's and Ubuntu's installation-report) prints behind its command
// line: "<command>: <output line>". Until one such line is seen (report),
// only a command line with a flag is taken ("lspci -knn", "uname -a"):
// "dmesg: read kernel buffer failed" is a program's own message; after it,
// report-hw's "lsmod: …" lines are taken too.
func labelled(line string, report bool) (command, string, bool) {
	k, rest, ok := strings.Cut(line, ": ")
	if !ok || k == "" || k[0] == ' ' || k[0] == '\t' {
		return command{}, "", false
	}
	if w := strings.Fields(k); !report && (len(w) < 2 || !strings.HasPrefix(w[1], "-")) {
		return command{}, "", false
	}
	c, ok := commandLine(k, true)
	return c, rest, ok
}

// unmark drops the markdown around a line that no command line heads: a
// list item's marker ("   - MLNX_OFED_LINUX-4.9-4.1.7.0", an output a
// poster filled into an issue template's list) and an inline code span
// that holds the whole line ("`Linux host 3.10.0-693.21.1.el7.x86_64 …`").
func unmark(line string) string {
	if loc := listItem.FindStringIndex(line); loc != nil && !mlxconfigMark.MatchString(line) {
		line = line[loc[1]:]
	}
	if m := codeSpan.FindStringSubmatch(line); m != nil {
		line = m[1]
	}
	return line
}

// spanMarks drops the backticks of a markdown inline code span that runs
// over several lines, the way a poster wraps a whole terminal session in
// one pair ("`~$ ibstat", its lines, "Link layer: InfiniBand`"): the
// opening one before a line's first character and the closing one after
// its last, each the line's only unpaired backtick. A span that opens and
// closes on one line is left to unmark; a fence's backticks are not these.
func spanMarks(line string, open bool) (string, bool) {
	if strings.Count(line, "`")%2 == 0 || strings.Contains(line, "``") {
		return line, open
	}
	t := strings.TrimSpace(line)
	switch {
	case !open && strings.HasPrefix(t, "`") && len(t) > 1:
		return strings.Replace(line, "`", "", 1), true
	case open && strings.HasSuffix(t, "`"):
		i := strings.LastIndex(line, "`")
		return line[:i] + line[i+1:], false
	}
	return line, open
}

// unquote drops the quote marks of a mail reply ("> ", ">> ", "> > ")
// and the leader of a C block comment ("/*", " * ", " */") from the start
// of a line: an output kept in a source file's comment reads as pasted.
func unquote(line string) string {
	if loc := quote.FindStringIndex(line); loc != nil {
		line = line[loc[1]:]
	}
	if loc := comment.FindStringIndex(line); loc != nil && !mlxconfigMark.MatchString(line) {
		line = line[loc[1]:]
	}
	return line
}

// gluedPrompt reports whether a line is a # or $ prompt written against
// the command it runs ("#ibv_devinfo -l", "$lspci"), as notes and some
// terminals print it, and returns the command line. Only a program the
// table reads (or cat) is taken: "#include" and "#!/bin/sh" are not
// prompts.
func gluedPrompt(line string) (string, bool) {
	m := glued.FindStringSubmatchIndex(line)
	if m == nil {
		return "", false
	}
	if w := path.Base(line[m[2]:m[3]]); !binaries[w] && w != "cat" {
		return "", false
	}
	return line[m[2]:], true
}

// shellError reports whether a line is a shell's or sudo's message that
// the command it was asked to run is missing ("-bash: ofed_info: command
// not found", "sudo: show_gids: command not found", "zsh: command not
// found: ibdev2netdev", "sh: 1: ibstat: not found"): no output of it.
func shellError(line string) bool {
	return shellErrorRE.MatchString(strings.TrimSpace(line))
}

// hashComments reports whether an output is a file whose format has '#'
// comment lines (modprobe.d(5)): in a cat of it, or a grep of its folder,
// "# https://…" is the file's comment, not a root prompt running some other
// command. A line that runs a table command still starts a new output.
func hashComments(p string) bool {
	return strings.Contains(p, "modprobe.d") || strings.HasSuffix(p, "modprobe.conf")
}

// otherPrompt reports whether a line is a prompt running a command the
// table does not read. A lone ">" is not taken for one: it is as often a
// poster's note under a command (" > the LID stays 0") as a prompt, and a
// > prompt that runs a table command is a command line before this is asked.
// Nor is a bare # or $ before words that are no command: a markdown
// heading ("# Environment", "# Notes:") or a note, whose word starts with
// a capital or ends in a colon, leaves the lines after it to be read.
func otherPrompt(line string) bool {
	loc := prompt.FindStringIndex(line)
	if loc == nil {
		return false
	}
	switch p := strings.TrimSpace(line[:loc[1]]); p {
	case ">":
		return false
	case "#", "$":
		w, _, _ := strings.Cut(strings.TrimSpace(line[loc[1]:]), " ")
		return w != "" && !strings.HasSuffix(w, ":") && !(w[0] >= 'A' && w[0] <= 'Z')
	}
	return true
}

// commandLine reports whether line runs a command of the source table: a
// prompt followed by it, or (after a blank line or at the top) the bare
// command line of a table entry.
func commandLine(line string, top bool) (command, bool) {
	rest := line
	hasPrompt := false
	if loc := prompt.FindStringIndex(line); loc != nil {
		rest, hasPrompt = line[loc[1]:], true
	} else if r, ok := gluedPrompt(line); ok {
		rest, hasPrompt = r, true
	} else if !top || strings.HasSuffix(strings.TrimSpace(line), ":") {
		// A bare line only at the top, and never one that ends in a
		// colon: "lspci -s on the affected card:" introduces an output.
		return command{}, false
	}
	rest, filter, _ := cutPipe(rest)
	if loc := shellComment.FindStringIndex(rest); loc != nil {
		rest = rest[:loc[0]] // "devlink dev info pci/0000:0d:00.0   # ConnectX-8 rail"
	}
	if loc := shellComment.FindStringIndex(filter); loc != nil {
		filter = filter[:loc[0]]
	}
	filter = strings.Join(strings.Fields(filter), " ")
	if passesAll(filter) {
		filter = ""
	}
	words := inContainer(shellWords(rest))
	for len(words) > 0 && (words[0] == "sudo" || strings.Contains(words[0], "=")) {
		words = words[1:]
	}
	if len(words) == 0 || len(words) > 8 {
		return command{}, false
	}
	words[0] = path.Base(words[0])
	if words[0] == "rdma" {
		words = rdmaWords(words)
	}
	if words[0] == "ip" {
		words = ipWords(words)
	}
	if words[0] == "devlink" {
		words = devlinkWords(words)
	}
	if words[0] == "ll" || words[0] == "ls" {
		words = lsWords(words)
	}
	if c, ok := grepOfFile(words); ok {
		// "grep INFINIBAND /boot/config-$(uname -r)": the file's lines
		// that grep let through, as "cat <file> | grep INFINIBAND" gives.
		c.filter = strings.Join(append(nonEmpty(c.filter), nonEmpty(filter)...), " | ")
		return c, true
	}
	c, ok := tableCommand(words, hasPrompt)
	c.filter = filter
	return c, ok
}

// grepOfFile reads "grep [options] PATTERN FILE" and "zcat FILE" of one
// file the table reads as a cat of that file, its filter the grep; a
// grep of a folder (-r) or of several files is not one file's lines.
func grepOfFile(words []string) (command, bool) {
	if len(words) < 2 {
		return command{}, false
	}
	file := words[len(words)-1]
	switch words[0] {
	case "zcat":
		if len(words) != 2 {
			return command{}, false
		}
	case "grep", "egrep", "fgrep", "zgrep":
		if len(words) < 3 || strings.HasPrefix(file, "-") {
			return command{}, false
		}
		operands := 0
		for _, w := range words[1 : len(words)-1] {
			switch {
			case w == "-r" || w == "-R" || strings.HasPrefix(w, "--recursive") || strings.HasPrefix(w, "--include"):
				return command{}, false
			case !strings.HasPrefix(w, "-"):
				operands++
			}
		}
		if operands > 1 && !slices.Contains(words, "-e") {
			return command{}, false // a second file, or a pattern after -f
		}
	default:
		return command{}, false
	}
	c, ok := tableCommand([]string{"cat", file}, true)
	if !ok {
		return command{}, false
	}
	if words[0] != "zcat" {
		c.filter = strings.Join(words[:len(words)-1], " ")
	}
	return c, true
}

// shellWords splits a command line at its spaces, but for those inside a
// command substitution: "/boot/config-$(uname -r)" and
// "/boot/config-`uname -r`" are one word, as the shell reads them.
func shellWords(line string) []string {
	var words []string
	for _, w := range strings.Fields(line) {
		if n := len(words); n > 0 && openSubstitution(words[n-1]) {
			words[n-1] += " " + w
			continue
		}
		words = append(words, w)
	}
	return words
}

// openSubstitution reports whether a word ends inside a $( … ) or ` … `.
func openSubstitution(w string) bool {
	return strings.Count(w, "$(") > strings.Count(w, ")") || strings.Count(w, "`")%2 == 1
}

// nonEmpty is s as a list: none when it is empty.
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// cutPipe cuts a command line at its first pipe outside quotes: the
// command, and the pipeline after it ("grep -E 'mlx|ib_' f | sort" is
// "grep -E 'mlx|ib_' f" and "sort").
func cutPipe(s string) (before, after string, found bool) {
	quote := rune(0)
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '|':
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// passesAll reports whether every stage of a pipeline passes every line
// on ("tee out.txt", "less"): the output is whole.
func passesAll(pipeline string) bool {
	for rest, more := pipeline, true; more; {
		var stage string
		stage, rest, more = cutPipe(rest)
		w := strings.Fields(stage)
		if len(w) == 0 {
			continue
		}
		switch path.Base(w[0]) {
		case "tee", "less", "more", "cat":
		default:
			return false
		}
	}
	return true
}

// tableCommand is the table command words run, if any; a line without a
// prompt must be one to the letter, or the program then a flag.
func tableCommand(words []string, hasPrompt bool) (command, bool) {
	if words[0] == "cat" && len(words) == 2 {
		// "cat /etc/os-release": the output is that file, when the
		// table reads it (or a file under a folder it reads).
		if f, ok := tableFile(words[1]); ok {
			return command{line: "cat " + words[1], path: f}, true
		}
		return command{}, false
	}
	if !binaries[words[0]] {
		// A command the table reads by the name sos gives its output
		// (flint -d <BDF> q): filed under that name.
		return globbed(words)
	}
	c, exact, ok := match(words)
	if !ok {
		return command{}, false
	}
	if !hasPrompt && !exact && (len(words) < 2 || !strings.HasPrefix(words[1], "-")) {
		// A bare line must be a table command to the letter, or the
		// program then a flag: "dmesg" and "ibv_devinfo -d mlx5_3 -v" in
		// a paste are commands, "ethtool reports …" is not.
		return command{}, false
	}
	return c, true
}

// bareNext returns the table command a line is to the letter, at the
// start of the line, when it is not the command whose output is being
// read (after "rdma link show" and its lines, "rdma dev").
func bareNext(line, current string) (command, bool) {
	if line == "" || line != strings.TrimSpace(line) {
		return command{}, false
	}
	words := strings.Fields(line)
	if len(words) > 4 {
		return command{}, false
	}
	words[0] = path.Base(words[0])
	if !binaries[words[0]] {
		return command{}, false
	}
	if words[0] == "rdma" {
		words = rdmaWords(words)
	}
	if words[0] == "ip" {
		words = ipWords(words)
	}
	if words[0] == "devlink" {
		words = devlinkWords(words)
	}
	c, exact, ok := match(words)
	if !ok || !exact || c.line == current {
		return command{}, false
	}
	return c, true
}

// inContainer returns the command a line runs in a pod or container:
// what follows "--" of kubectl or oc exec ("kubectl exec -n ns pod --
// show_gids"), or the words after the container of docker, podman or
// nerdctl exec ("docker exec -it ctr ibv_devinfo"). Other lines are
// returned as they are.
func inContainer(words []string) []string {
	if len(words) < 3 || words[1] != "exec" {
		return words
	}
	switch path.Base(words[0]) {
	case "kubectl", "oc":
		for i, w := range words {
			if w == "--" {
				return words[i+1:]
			}
		}
	case "docker", "podman", "nerdctl":
		i := 2
		for i < len(words) && strings.HasPrefix(words[i], "-") {
			if slices.Contains([]string{"-u", "--user", "-w", "--workdir", "-e", "--env", "--env-file"}, words[i]) {
				i++ // the flag's value
			}
			i++
		}
		if i+1 < len(words) {
			return words[i+1:]
		}
	}
	return words
}

// lsWords spells a pasted ls of a folder as the table does: the "ll"
// alias distributions define in their shell start-up files (Debian's and
// Ubuntu's skeleton .bashrc "ls -alF", RHEL's colorls.sh "ls -l
// --color=auto") as ls -l, and a folder's trailing "/" dropped
// ("ls /dev/infiniband/").
func lsWords(words []string) []string {
	out := []string{"ls"}
	if words[0] == "ll" {
		out = append(out, "-l")
	}
	for _, w := range words[1:] {
		if len(w) > 1 && strings.HasSuffix(w, "/") && !strings.HasPrefix(w, "-") {
			w = strings.TrimRight(w, "/")
		}
		out = append(out, w)
	}
	return out
}

// devlinkWords spells a pasted devlink health command as the table does:
// "devlink health" runs "show", its default (iproute2 devlink/devlink.c
// cmd_health), and "devlink port health show" prints the same reporters.
func devlinkWords(words []string) []string {
	out := append([]string(nil), words...)
	if len(out) >= 3 && out[1] == "port" && out[2] == "health" {
		out = append([]string{out[0]}, out[2:]...)
	}
	if len(out) == 2 && out[1] == "health" {
		out = append(out, "show")
	}
	return out
}

// rdmaObjects are the objects of iproute2's rdma in the order it tries
// them (rdma/rdma.c): it takes any prefix of an object's or a command's
// name (rd_argv_match in rdma/utils.c), so "rdma r" and "rdma resource" are
// the table's "rdma res".
var rdmaObjects = []string{"help", "dev", "link", "resource", "system", "statistic", "monitor"}

// rdmaWords spells a pasted rdma argv as the table does: the object in
// full ("res" for resource) and, for resources, "show" for a prefix of it
// or for "list", and "rdma res" with no command as "rdma res show", its
// default.
func rdmaWords(words []string) []string {
	out := append([]string(nil), words...)
	obj := -1
	for i := 1; i < len(out); i++ {
		w := out[i]
		if strings.HasPrefix(w, "-") {
			continue
		}
		if obj < 0 {
			for _, o := range rdmaObjects {
				if strings.HasPrefix(o, w) {
					out[i] = o
					if o == "resource" {
						out[i] = "res"
					}
					break
				}
			}
			obj = i
			continue
		}
		if out[obj] == "res" && (strings.HasPrefix("show", w) || w == "list") {
			out[i] = "show"
		}
		return out
	}
	if obj > 0 && out[obj] == "res" {
		out = append(out, "show")
	}
	return out
}

// globbed files a pasted argv that is none of the table's command lines
// under the name sos gives its output, when that name is one a row's
// Globs read: sos_commands/kbcollect/mstflint_-d_18_00.0_q.
func globbed(words []string) (command, bool) {
	line := strings.Join(words, " ")
	p := capturePath("kbcollect", line)
	for _, t := range source.Tools {
		if t.Globbed(p) {
			return command{line: line, path: p}, true
		}
	}
	return command{}, false
}

// match files a pasted argv under the table's command with the same
// program and the most flags in common; exact is true when the words
// match a table line, placeholders matching any word. ok is false when
// no table line of the program prints what the argv does (see kin).
func match(words []string) (c command, exact, ok bool) {
	type cand struct {
		c     source.Command
		score int
	}
	var cands []cand
	for _, t := range source.Tools {
		for _, c := range t.Commands {
			tw := strings.Fields(c.Line)
			if tw[0] != words[0] {
				continue
			}
			if line, ok := fill(tw, words); ok {
				return command{line: c.Line, path: capturePath(c.Plugin, line)}, true, true
			}
			if kin(tw[1:], words[1:]) && !changes(words) {
				cands = append(cands, cand{c, overlap(tw[1:], words[1:])})
			}
		}
	}
	if len(cands) == 0 {
		return command{}, false, false
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	best := cands[0].c
	line := best.Line
	if strings.Contains(line, "{") {
		tw := strings.Fields(line)
		for i, w := range tw {
			if strings.HasPrefix(w, "{") {
				tw[i] = "pasted"
			}
		}
		line = strings.Join(tw, " ")
	}
	return command{line: best.Line, path: capturePath(best.Plugin, line)}, false, true
}

// kin reports whether a pasted argument list runs what a table line's
// does: the table's words that are not flags (subcommands, placeholders
// taking any word) begin the pasted ones, and when both have flags they
// share one. "mst start" is not "mst status -v", "ethtool -S eth0" not
// "ethtool -i {netdev}", "devlink port show" not "devlink dev info";
// "rdma link list" is "rdma link", "ibv_devinfo -d mlx5_0 -v" is
// "ibv_devinfo -v" and "mlxup" is "mlxup --query".
func kin(table, pasted []string) bool {
	words := func(ws []string) (plain []string, flags map[string]bool) {
		flags = map[string]bool{}
		for _, w := range ws {
			switch {
			case strings.HasPrefix(w, "--"):
				flags[w] = true
			case strings.HasPrefix(w, "-") && len(w) > 1:
				for _, r := range w[1:] {
					flags["-"+string(r)] = true
				}
			default:
				plain = append(plain, w)
			}
		}
		return plain, flags
	}
	tp, tf := words(table)
	pp, pf := words(pasted)
	if len(tp) > len(pp) {
		return false
	}
	for i, w := range table {
		// A flag before a placeholder names what is printed of that
		// argument ("ethtool -i {netdev}"): without it the program
		// prints another report ("ethtool ens1", its link settings).
		if strings.HasPrefix(w, "-") && i+1 < len(table) && source.Placeholder(table[i+1]) && len(pf) == 0 {
			return false
		}
	}
	// The program and a placeholder alone ("ethtool {netdev}") is the
	// program's default report: a pasted flag asks for another
	// ("ethtool -S eth0", its statistics; "ethtool -k eth0", its offloads).
	if len(table) == 1 && source.Placeholder(table[0]) && len(pf) > 0 {
		return false
	}
	for i, w := range tp {
		if !source.Placeholder(w) && w != pp[i] {
			return false
		}
	}
	if len(tf) == 0 || len(pf) == 0 {
		return true
	}
	for f := range tf {
		if pf[f] {
			return true
		}
	}
	return false
}

// changing are the subcommands of devlink and rdma that set state
// rather than show it.
var changing = map[string]bool{"set": true, "add": true, "del": true, "delete": true, "reload": true, "flash": true, "recover": true}

// ipWords spells out the object of an ip command line the way ip reads
// it, by any prefix ("ip l show", "ip a", "ip addr"): link and address are
// the objects the table reads.
func ipWords(words []string) []string {
	out := append([]string(nil), words...)
	for i := 1; i < len(out); i++ {
		w := out[i]
		if strings.HasPrefix(w, "-") {
			continue
		}
		switch {
		case strings.HasPrefix("link", w):
			out[i] = "link"
		case strings.HasPrefix("address", w) || w == "addr":
			out[i] = "address"
		}
		return out
	}
	return out
}

// changes reports whether a pasted devlink, rdma or ip argv changes the
// device ("devlink dev param set …", "rdma dev add smi1 …", "devlink dev
// reload …"): it prints no report of the table line whose words it
// starts with ("devlink dev", "rdma dev"). rxe_cfg's add is not one: the
// table reads its errors.
func changes(words []string) bool {
	if words[0] != "devlink" && words[0] != "rdma" && words[0] != "ip" {
		return false
	}
	for _, w := range words[1:] {
		if changing[w] {
			return true
		}
	}
	return false
}

// fill matches words against a table line's words, placeholders taking
// any word, and returns the line with them filled in.
func fill(tw, words []string) (string, bool) {
	if len(tw) != len(words) {
		return "", false
	}
	out := make([]string, len(tw))
	for i, w := range tw {
		switch {
		case strings.HasPrefix(w, "{") && strings.HasSuffix(w, "}"):
			out[i] = words[i]
		case w == words[i]:
			out[i] = w
		default:
			return "", false
		}
	}
	return strings.Join(out, " "), true
}

// overlap scores how alike two argument lists are: shared flag letters
// and words.
func overlap(a, b []string) int {
	set := func(ws []string) map[string]bool {
		m := map[string]bool{}
		for _, w := range ws {
			if strings.HasPrefix(w, "--") || !strings.HasPrefix(w, "-") {
				m[w] = true
				continue
			}
			for _, r := range w[1:] {
				m["-"+string(r)] = true
			}
		}
		return m
	}
	sa, sb := set(a), set(b)
	n := 0
	for w := range sa {
		if sb[w] {
			n += 2
		} else {
			n--
		}
	}
	return n
}

func capturePath(plugin, line string) string {
	return "sos_commands/" + plugin + "/" + source.SosName(line)
}

// tableFile reports whether a path a paste cats is one the source table
// reads: one of a row's Files, a file under one of its folders
// (/sys/class/infiniband/mlx5_0/fw_ver), or one of its Globs
// (/var/log/messages). It returns the snapshot path.
func tableFile(p string) (string, bool) {
	f := strings.TrimPrefix(path.Clean("/"+p), "/")
	if f == "" || strings.HasPrefix(f, "..") {
		return "", false
	}
	for _, t := range source.Tools {
		for _, id := range t.Files {
			if f == string(id) || strings.HasPrefix(f, string(id)+"/") {
				return f, true
			}
		}
		if t.Globbed(f) {
			return f, true
		}
	}
	return "", false
}
