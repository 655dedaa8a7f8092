package sysinfosnapshot

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
)

// Output is one command's or file's output.
type Output struct {
	// Title names it as sysinfo-snapshot does: a command line
	// ("ibv_devinfo -v"), a file's path ("/proc/modules") or a handler's
	// name ("ethtool_all_interfaces", "mst_commands_query_output").
	Title string
	Body  string // the output, unescaped, each line ending with a newline
	Line  int    // 1-based line of the file where its title is
}

// maxInput caps what one file is read to; the snapshot's own per-file cap
// bounds it before it is split.
const maxInput = 256 << 20

// HTML anchors and tags sysinfo-snapshot.py writes (html_write_paragraph).
const (
	anchor = `<a name="sec`
	h2     = "<h2>"
	h2End  = "</h2>"
	pOpen  = "<p>"
	pClose = "</p>"
)

// unescape undoes html_write_paragraph's escaping: tabs became four
// &nbsp;, < and > became entities (& itself was never escaped), newlines
// became <br/> (3.2.0 on; 3.1.8 kept them).
var unescape = strings.NewReplacer("<br/>", "\n", "&nbsp;&nbsp;&nbsp;&nbsp;", "\t", "&lt;", "<", "&gt;", ">")

// ParseHTML splits sysinfo-snapshot's main HTML file into its sections,
// in file order. A section is an anchor <a name="secN">, then a <h2>
// title, then the output in the first <p> … </p> after it; the index
// tables, the alerts and the sections without an anchor are not read.
func ParseHTML(r io.Reader) ([]Output, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxInput))
	if err != nil {
		return nil, fmt.Errorf("read sysinfo-snapshot html: %w", err)
	}
	s := string(b)
	var out []Output
	line, counted := 1, 0 // the line at offset counted
	for off := 0; ; {
		i := strings.Index(s[off:], anchor)
		if i < 0 {
			break
		}
		start := off + i + len(anchor)
		end := len(s)
		if j := strings.Index(s[start:], anchor); j >= 0 {
			end = start + j
		}
		off = end
		if o, at, ok := section(s[start:end]); ok {
			line += strings.Count(s[counted:start+at], "\n")
			counted = start + at
			o.Line = line
			out = append(out, o)
		}
	}
	return out, nil
}

// section reads one anchor's chunk: its title, where the title is in the
// chunk, and its output.
func section(chunk string) (Output, int, bool) {
	at := strings.Index(chunk, h2)
	if at < 0 {
		return Output{}, 0, false
	}
	title, rest, ok := strings.Cut(chunk[at+len(h2):], h2End)
	if !ok {
		return Output{}, 0, false
	}
	rest = strings.TrimLeft(rest, " \n")
	rest, ok = strings.CutPrefix(rest, pOpen)
	if !ok {
		return Output{}, 0, false
	}
	body, _, _ := strings.Cut(rest, pClose)
	title = strings.TrimSpace(title)
	if title == "" {
		return Output{}, 0, false
	}
	return Output{Title: title, Body: endLines(unescape.Replace(body))}, at, true
}

// ParseFile reads one of sysinfo-snapshot's command files: in
// commands_txt_output/ (add_txt_command_output) line 1 is "Invoked
// Command: <command>", in firmware/ (the flint and mstflint queries of
// mst_commands_query_output) and rdma_tool/ (rdma_tool_handler, 3.6.5 on:
// "/opt/mellanox/iproute2/sbin/rdma resource show" and the like) it is the
// command line itself. ok is false for an empty file.
func ParseFile(r io.Reader) (Output, bool, error) {
	br := bufio.NewReader(io.LimitReader(r, maxInput))
	first, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return Output{}, false, fmt.Errorf("read sysinfo-snapshot file: %w", err)
	}
	rest, err := io.ReadAll(br)
	if err != nil {
		return Output{}, false, fmt.Errorf("read sysinfo-snapshot file: %w", err)
	}
	title := strings.TrimSpace(strings.TrimPrefix(first, "Invoked Command:"))
	if title == "" {
		return Output{}, false, nil
	}
	return Output{Title: title, Body: endLines(string(rest)), Line: 1}, true, nil
}

// blockEnd ends each command's output in ethtool_all_interfaces
// (ethtool_all_interfaces_handler: "\n____________\n\n").
const blockEnd = "____________"

// failures start the note sysinfo-snapshot writes in place of an output
// it could not get: add_fabric_command_if_exists ("Couldn't find
// command: ibstat"), the ethtool and mlnx_qos handlers ("Could not run
// command: "), add_command_if_exists and the modinfo handler ("Could not
// run: ").
var failures = []string{"Couldn't find command: ", "Could not run command: ", "Could not run: "}

// Missing reports whether the output is sysinfo-snapshot's note that it
// could not run the command, or empty.
func (o Output) Missing() bool {
	if strings.TrimSpace(o.Body) == "" {
		return true
	}
	for _, f := range failures {
		if strings.HasPrefix(o.Body, f) {
			return true
		}
	}
	return false
}

// SplitEthtool splits the ethtool_all_interfaces section (3.1.8 names it
// eth_tool_all_interfaces) into one output per "ethtool <option> <netdev>"
// it ran, the option's words as the command line has them ("ethtool
// eth0", "ethtool -i eth0"). A command it could not run is left out. The
// section's body is taken to start on its title's line, as in the HTML.
func SplitEthtool(o Output) []Output {
	var out []Output
	var cur *Output
	var body strings.Builder
	n := o.Line
	for line := range strings.Lines(o.Body) {
		text := strings.TrimRight(line, "\r\n")
		switch {
		case cur == nil && ethtoolHeader(text):
			cur = &Output{Title: strings.Join(strings.Fields(text), " "), Line: n}
			body.Reset()
		case cur != nil && text == blockEnd:
			if cur.Body = endLines(body.String()); !cur.Missing() {
				out = append(out, *cur)
			}
			cur = nil
		case cur != nil:
			body.WriteString(text)
			body.WriteByte('\n')
		}
		n += strings.Count(line, "\n")
	}
	return out
}

// ethtoolHeader reports whether a line is the "ethtool <option> <netdev>"
// the handler writes before each output: ethtool, an option or none, a
// netdev. The ethtool --version output before them ("ethtool version
// 4.8") and "ethtool -S output:" after them are not.
func ethtoolHeader(line string) bool {
	f := strings.Fields(line)
	if len(f) < 2 || len(f) > 3 || f[0] != "ethtool" || strings.HasSuffix(f[len(f)-1], ":") {
		return false
	}
	return len(f) == 2 || strings.HasPrefix(f[1], "-")
}

// endLines ends the last line with a newline, as a command's output file
// does.
func endLines(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// FilePath is the snapshot path of a section that shows a file
// ("/proc/modules" is "proc/modules"), "" for anything else.
func (o Output) FilePath() string {
	if !strings.HasPrefix(o.Title, "/") || strings.ContainsAny(o.Title, " *?$") {
		return ""
	}
	p := path.Clean(o.Title)[1:]
	if p == "" || strings.HasPrefix(p, "..") {
		return ""
	}
	return p
}

// CommandLine is the command line whose output a section or file holds:
// its title, words separated by one space, except where the title is not
// what ran. sysinfo-snapshot 3.7's "uname" runs "uname -a" when it may
// record the host name and "uname -s -o -p -i -v -r -m" when it may not
// (the "uname" branch of add_command_if_exists); only the first is
// uname -a, and it is told by its shape: the kernel's build ("#1 SMP …")
// is its fourth word, not its third. A handler's name is returned as it
// is: it names no command the collector reads.
func (o Output) CommandLine() string {
	title := strings.Join(strings.Fields(o.Title), " ")
	if title == "uname" {
		f := strings.Fields(o.Body)
		if len(f) > 3 && strings.HasPrefix(f[3], "#") {
			return "uname -a"
		}
		return ""
	}
	return title
}

// externals are the files sysinfo-snapshot writes beside its HTML, by
// their path in the snapshot folder, and the command line each holds
// (external_files_collection and add_ext_file_handler; "lspci" files go to
// pcie_files/ since 3.6.1). pcie_files/lspci_vv is not "lspci -vv" but a
// tree of paths followed by lspci -vv -s of each device (lspci_vv_handler),
// so it is not listed; nor is dmesg, which External tells by its lines.
// journal (3.7: "journalctl -k -o short-monotonic") lands at its sos path,
// sos_commands/logs/journalctl_-k_-o_short-monotonic, where the
// kernel-log row of internal/source looks; the classifier reads its
// "[   12.345678] host kernel: " lines.
var externals = map[string]string{
	"journal":                   "journalctl -k -o short-monotonic",
	"lspci_vvvxxxxx":            "lspci -vvvxxxxx",
	"pcie_files/lspci_vvvxxxxx": "lspci -vvvxxxxx",
	"pcie_files/lspci":          "lspci",
	"pcie_files/lspci_nnvvvxxx": "lspci -nnvvvxxxx",
}

// ExternalFiles lists the files beside the HTML that External may name a
// command line for, in the order they are read.
func ExternalFiles() []string {
	return []string{"dmesg", "journal", "lspci_vvvxxxxx", "pcie_files/lspci_vvvxxxxx", "pcie_files/lspci", "pcie_files/lspci_nnvvvxxx"}
}

// External is the command line whose output a file beside the HTML holds,
// "" for a file that holds no one command's output. The file "dmesg" holds
// "dmesg -T" since 3.2.0 and plain "dmesg" in 3.1.8; its first timestamp
// tells them apart ("[Mon Jan  2 03:04:05 2006]" or seconds since boot).
func External(name string, body []byte) string {
	if name != "dmesg" {
		return externals[name]
	}
	for line := range bytes.Lines(body) {
		rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("["))
		if !ok {
			continue
		}
		if rest = bytes.TrimSpace(rest); len(rest) > 0 && (rest[0] < '0' || rest[0] > '9') {
			return "dmesg -T"
		}
		return "dmesg"
	}
	return ""
}
