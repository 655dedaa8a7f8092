package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/paste"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
)

func newPasteCmd() *cobra.Command {
	var o rootOptions
	c := &cobra.Command{
		Use:   "paste [FILE ...]",
		Short: "Write a host record from command output a customer pasted (a ticket, a mail, a chat log)",
		Long: `kbcollect paste reads text that holds the output of one or more commands (a
support ticket, a mail, an issue comment) from the files named, or from standard
input when there are none or a file is "-", and writes the host record those
outputs give, as kbcollect does for a capture.

Each output is found by the command line before it: a shell prompt and the
command ($ ibv_devinfo -v, # lspci -vvv, user@host:~$ sudo ethtool -i ens1f0,
[root@host ~]# dmesg | grep mlx5, $ kubectl exec pod-0 -- show_gids), or a
bare command line (one kbcollect runs, or its program then a flag:
ibv_devinfo -d mlx5_3 -v) at the top, after a blank line or after a code fence;
right after another output, a line that is another such command to the letter
(rdma dev after rdma link show's lines) starts its own. A code fence (a markdown ` + "```" + ` or ~~~ line, an HTML <pre>) closes the output
before it. Lines that each begin with their command
line and ": " (report-hw's "lspci -knn: 00:00.0 …") are that command's output.
Output with no command line before it is recognised by what it says: a kernel
log, lspci (its -t tree too), ibv_devinfo, ethtool -i, ethtool <netdev>'s
settings, devlink dev info, devlink health, rdma link, rdma statistic,
ibdev2netdev, ibstat, show_gids, rxe_cfg's status table, lsmod, modinfo, ofed_info,
mlxfwmanager, a flint or mstflint query, an mlxconfig or mstconfig query, mst
status output, a Kubernetes device plugin's log (kubectl logs of the RDMA
shared or SR-IOV network device plugin: the PCI functions it found), lshw's
network nodes or -businfo rows, ip link's links (ip -d link, ip -s link, ip -o
link, and the link lines of ip address) and /proc/interrupts (its CPU header
or an IRQ line of an MSI chip); a kernel log line
ends the output of any other command. After a prompt running a command kbcollect does
not read (an alias, a wrapper, a mistyped name), output in a layout only its
tool prints (show_gids's table, ibv_devinfo's blocks, ibstat's CA lines) is
read too; other text is left out. What it filed, and the lines it could not place,
are listed on standard error. In the record each source's path names the file
and lines it came from (ticket.txt:17-25); evidence line numbers count within
that command's output.

A paste of several hosts is written as one record per host, into the folder
-o names (it must end in / or be there), each file named by its host id
(redacted: its token; the paste's digest is the default salt, so its records
share their tokens run after run). A host is told by a prompt naming it
(user@host:~$, [user@host dir]#, host:~ #, for the lines after it until a
prompt naming another host or a bare command line starting a block), a
parallel shell's "node: " prefix (pdsh, clush, xdsh), an Ansible header
("node1 | CHANGED | rc=0 >>"), a "==> node1 <==" header of tail, the host
field of syslog lines when they name two hosts or more, or headings naming
two hosts or more ("## node1", "### host: node2", "**node3**", a comment
"# node01: RoCE check", a command in a code span then "on c1"; a heading naming no
host ends the one before). Lines before any
host is named are a record of their own, "unnamed". Where a paste names one
host or none, it is one record as before (in a folder, named after the one
file it came from: ticket-1234.txt gives ticket-1234.toml); when it holds
one RDMA device with two node GUIDs, or uname -a naming two hosts, the
record says it may hold several hosts ([[problem]] with source "paste").

A mail reply's "> " quote marks are dropped from every line, and a document
converted to markdown, whose prompts read \[root@host \~\]#, has its backslash
escapes undone. Other paste damage is undone as for a capture: line-number
prefixes, indentation, mail wrapping and quoted-printable text in kernel logs.
A file Windows saved as UTF-16 (PowerShell's >, Notepad's "Unicode") is read as
its text, as are files of a capture. Redaction is on by default, as for kbcollect,
keyed by the paste's digest unless --salt or --salt-file is given, so the same
paste gives the same record run after run. The one host a paste names (its
prompts' host) is the record's host name where no output gives one.

Examples:
  kbcollect paste ticket-1234.txt -o records/ticket-1234.toml
  pbpaste | kbcollect paste --no-redact
  kbcollect paste dmesg.txt lspci.txt ibv_devinfo.txt
  kbcollect paste two-nodes.txt -o records/
` + exitCodesHelp,
		RunE: func(c *cobra.Command, args []string) error { return runPaste(c, o, args) },
	}
	addRecordFlags(c, &o)
	c.Flags().Int64Var(&o.maxFile, "max-file", snapshot.DefaultMaxFile, "cap in bytes for the pasted text (16 MiB)")
	return c
}

func runPaste(c *cobra.Command, o rootOptions, files []string) error {
	if o.format != "toml" && o.format != "json" {
		return cli.Usagef("unknown --format %q (want toml or json)", o.format)
	}
	if o.maxFile < 1024 || o.maxFile > 1<<30 {
		return cli.Usagef("--max-file must be between 1024 and 1073741824 bytes")
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	// Each file is read whole, then cut by the host each line came from
	// where the paste says it (paste.Hosts); each part is split into its
	// outputs on its own: a kernel log in the second file does not belong
	// to the last command of the first.
	var parts []pasted
	texts := map[string][]byte{} // each file's text
	cut := map[string]bool{}     // the files paste.Hosts cut in several parts
	digest := sha256.New()
	left := o.maxFile
	for _, f := range files {
		name, r := f, io.Reader(c.InOrStdin())
		if f == "-" {
			name = "standard input"
		} else {
			fh, err := os.Open(f)
			if err != nil {
				return cli.Usagef("paste: %v", err)
			}
			defer fh.Close()
			r = fh
		}
		b, err := io.ReadAll(io.LimitReader(r, left))
		if err != nil {
			return cli.Usagef("paste: read %s: %v", name, err)
		}
		left -= int64(len(b))
		texts[name] = b
		digest.Write(b)
		found := 0
		hs := paste.Hosts(b)
		cut[name] = len(hs) > 1
		for _, p := range hs {
			ss, unknown, err := paste.Split(bytes.NewReader(p.Text))
			if err != nil {
				return cli.Usagef("paste: %s: %v", name, err)
			}
			found += len(ss)
			parts = append(parts, pasted{name, p, ss, unknown})
		}
		if found == 0 {
			return cli.Usagef("paste: no command output recognised in %s; put the command line before each output (e.g. \"$ ibv_devinfo -v\")", name)
		}
	}
	// The hosts the paste names, in the order it first names them; a host
	// counts when an output is found in its lines (a management node that
	// only ran the parallel shell is none). One or none: one record of
	// every line, as before hosts were told apart.
	var hosts []string // host keys
	spelled := map[string]string{}
	outputs := map[string]int{}
	for _, p := range parts {
		k := hostKey(p.part.Host)
		if _, ok := spelled[k]; !ok {
			spelled[k] = p.part.Host
			hosts = append(hosts, k)
		}
		outputs[k] += len(p.secs)
	}
	named := 0
	for _, k := range hosts {
		if k != "" && outputs[k] > 0 {
			named++
		}
	}
	// The one host a paste names, if it names one: the record's host name.
	oneHost, oneLine := "", ""
	if named <= 1 {
		for _, p := range parts {
			if k := hostKey(p.part.Host); k != "" && outputs[k] > 0 {
				oneHost, oneLine = p.part.Host, p.namedAt()
				break
			}
		}
		// Each file cut by host split again whole, as one text: the
		// host of its lines is one, or not said.
		var one []pasted
		for i, p := range parts {
			if !cut[p.name] {
				one = append(one, p)
				continue
			}
			if i > 0 && parts[i-1].name == p.name {
				continue
			}
			b := texts[p.name]
			ss, unknown, err := paste.Split(bytes.NewReader(b))
			if err != nil {
				return cli.Usagef("paste: %s: %v", p.name, err)
			}
			lines := make([]int, bytes.Count(b, []byte("\n"))+1)
			for i := range lines {
				lines[i] = i + 1
			}
			one = append(one, pasted{p.name, paste.Part{Text: b, Lines: lines}, ss, unknown})
		}
		parts = one
		for i := range parts {
			parts[i].part.Host = ""
		}
		hosts = []string{""}
	} else {
		var names []string
		for _, k := range hosts {
			if k != "" && outputs[k] > 0 {
				names = append(names, spelled[k])
			}
		}
		if o.output == "" || o.output == "-" {
			return cli.Usagef("paste: the paste holds the output of %d hosts (%s), named by its prompts, parallel-shell prefixes, headers or headings; give -o FOLDER to write one record per host", named, strings.Join(names, ", "))
		}
		if !isFolder(o.output) {
			return cli.Usagef("-o %s: the paste holds the output of %d hosts (%s): give a folder (ending in /) to write one record per host", o.output, named, strings.Join(names, ", "))
		}
		if !o.quiet {
			fmt.Fprintf(c.ErrOrStderr(), "paste: %d hosts (%s): one record each in %s\n", named, strings.Join(names, ", "), o.output)
		}
	}
	// Redaction is keyed by the paste's digest unless a salt is given: the
	// same paste gives the same tokens run after run (and a paste of
	// several hosts, records that share them), and only who holds the
	// paste can tell which names they stand for.
	if !c.Flags().Changed("salt") && o.saltFile == "" {
		o.pasteSalt = "paste:" + hex.EncodeToString(digest.Sum(nil))
	}
	if o.output != "" && o.output != "-" && isFolder(o.output) {
		// A folder: the record is written in it, named by its host.
		if err := os.MkdirAll(o.output, 0o755); err != nil {
			return cli.Usagef("-o: %v", err)
		}
		o.outDir, o.written = o.output, map[string]bool{}
		// A paste of one host from one file is named after the file
		// (ticket-1234.txt: ticket-1234.toml) when it gives no host id.
		if named <= 1 && len(files) == 1 && files[0] != "-" {
			o.unnamed = strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
		}
	}
	for _, k := range hosts {
		ho := o
		var secs []*paste.Section
		from := map[string][]string{}    // capture path → "file:first-last" of each output filed there
		filters := map[string][]string{} // capture path → the filter of each output filed there ("" for none)
		var text []byte
		hostName, nameLine := spelled[k], ""
		if k == "" {
			hostName, nameLine = oneHost, oneLine
		}
		for _, p := range parts {
			if hostKey(p.part.Host) != k {
				continue
			}
			text = append(text, p.part.Text...)
			if p.part.Host != "" && nameLine == "" {
				nameLine = p.namedAt()
			}
			ss, unknown := p.secs, p.unknown
			at := func(l int) int { // the paste's line of the part's line l
				if l < 1 {
					l = 1
				}
				if l > len(p.part.Lines) {
					l = len(p.part.Lines)
				}
				if l == 0 {
					return 0
				}
				return p.part.Lines[l-1]
			}
			if !o.quiet {
				for _, s := range ss {
					how := "after its command line"
					if !s.Named {
						how = "recognised by its output"
					}
					if s.Cut > 0 {
						how += fmt.Sprintf("; %d over 1 MiB cut there", s.Cut)
					}
					fmt.Fprintf(c.ErrOrStderr(), "paste: %s:%d: %s, %s (%s)%s\n", p.name, at(s.Line), s.Command, lineCount(s.Lines), how, ofHost(p.part.Host, named))
				}
				if unknown > 0 {
					fmt.Fprintf(c.ErrOrStderr(), "paste: %s: %s matched no command and %s left out%s\n", p.name, lineCount(unknown), map[bool]string{true: "was", false: "were"}[unknown == 1], ofHost(p.part.Host, named))
				}
			}
			for _, s := range ss {
				// The file's base name only: a record is shared, its folders are the user's.
				from[s.Path] = append(from[s.Path], fmt.Sprintf("%s:%d-%d", filepath.Base(p.name), at(s.Line), at(s.Line+max(s.Lines, 1)-1)))
				filters[s.Path] = append(filters[s.Path], s.Filter)
			}
			secs = append(secs, ss...)
		}
		if len(secs) == 0 {
			continue // lines of no host named, with no output in them
		}
		fsys := paste.FS(secs)
		// The host as the paste names it is the record's host name, where
		// no output of the paste gives one.
		if hostName != "" {
			if _, ok := fsys[string(source.EtcHostname)]; !ok {
				fsys[string(source.EtcHostname)] = &fstest.MapFile{Data: []byte(hostName + "\n"), Mode: 0o644}
				from[string(source.EtcHostname)] = []string{nameLine}
				filters[string(source.EtcHostname)] = []string{""}
			}
		}
		if k != "" {
			ho.problems = append(ho.problems, fmt.Sprintf("one of %d hosts in one paste; this record holds the lines the paste gives as this host's, %s", named, strings.TrimSuffix(strings.SplitN(nameLine, "(", 2)[1], ")")))
		} else if named > 1 {
			ho.problems = append(ho.problems, fmt.Sprintf("the lines of a paste of %d hosts before it names any host: which host they are of is not said", named))
		}
		if named <= 1 {
			ho.problems = append(ho.problems, paste.SeveralHosts(text)...)
		}
		ho.where = func(p string) (string, string, bool) {
			w, ok := from[p]
			if p == string(source.EtcHostname) && hostName != "" && len(w) == 1 && w[0] == nameLine {
				return nameLine, "", ok
			}
			return strings.Join(w, ", ") + " (pasted)", filterOf(filters[p]), ok
		}
		snap := snapshot.FromFS(fsys, "capture", "paste:"+strings.Join(files, ","))
		snap.MaxFile, ho.pasted = o.maxFile, true
		snap.Filters = map[string]string{}
		for p, fs := range filters {
			if f := filterOf(fs); f != "" {
				snap.Filters[p] = f
			}
		}
		if err := writeRecord(c, ho, snap); err != nil {
			return err
		}
	}
	return nil
}

// pasted is a part of a pasted file: the lines of one host, or of all
// when the file does not say, and the outputs found in them.
type pasted struct {
	name    string // the file as named, "standard input" for -
	part    paste.Part
	secs    []*paste.Section
	unknown int // lines left out
}

// namedAt is where the part's host is named and how, as a record's
// etc/hostname source gives it: "ticket.txt:4 (named by a prompt)".
func (p pasted) namedAt() string {
	by := map[string]string{"prompt": "named by a prompt", "parallel shell": "named by a parallel shell's prefix", "ansible": "named by an Ansible header", "tail header": "named by a tail header", "syslog": "named by its syslog lines", "heading": "named by a heading"}[p.part.By]
	return fmt.Sprintf("%s:%d (%s)", filepath.Base(p.name), p.part.At, by)
}

// isFolder reports whether -o names a folder: one that ends in a slash,
// or one that is there.
func isFolder(p string) bool {
	if strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(os.PathSeparator)) {
		return true
	}
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// hostKey is how a host is known: its short name, case folded.
func hostKey(h string) string {
	h, _, _ = strings.Cut(strings.ToLower(h), ".")
	return h
}

// ofHost names the host an output was filed under, when the paste holds
// several.
func ofHost(host string, named int) string {
	switch {
	case named <= 1:
		return ""
	case host == "":
		return ", no host named"
	}
	return ", host " + host
}

// filterOf is the filter of an output pasted once or more: none when one
// paste of it was whole, else the pipelines joined by "; ".
func filterOf(fs []string) string {
	if slices.Contains(fs, "") {
		return ""
	}
	return strings.Join(slices.Compact(slices.Sorted(slices.Values(fs))), "; ")
}

// lineCount is "1 line", "2 lines".
func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
