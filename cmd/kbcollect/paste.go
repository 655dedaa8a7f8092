package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/paste"
	"github.com/rocekb/rocekb/internal/snapshot"
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

A mail reply's "> " quote marks are dropped from every line, and a document
converted to markdown, whose prompts read \[root@host \~\]#, has its backslash
escapes undone. Other paste damage is undone as for a capture: line-number
prefixes, indentation, mail wrapping and quoted-printable text in kernel logs.
A file Windows saved as UTF-16 (PowerShell's >, Notepad's "Unicode") is read as
its text, as are files of a capture. Redaction is on by default, as for kbcollect.

Examples:
  kbcollect paste ticket-1234.txt -o records/ticket-1234.toml
  pbpaste | kbcollect paste --no-redact
  kbcollect paste dmesg.txt lspci.txt ibv_devinfo.txt
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
	// Each file is split on its own: a kernel log in the second file does
	// not belong to the last command of the first.
	var secs []*paste.Section
	from := map[string][]string{}    // capture path → "file:first-last" of each output filed there
	filters := map[string][]string{} // capture path → the filter of each output filed there ("" for none)
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
		// A parallel shell's output (pdsh, clush, xdsh): one node's lines
		// are read without the node's name; several nodes are several
		// hosts, which one record cannot hold.
		switch nodes := paste.Nodes(b); len(nodes) {
		case 0:
		case 1:
			b = paste.StripNode(b, nodes[0])
		default:
			return cli.Usagef("paste: %s holds the output of %d nodes (%s), as a parallel shell prints it; a record is one host's: paste each node's lines on their own, e.g. grep '^%s: ' %s | sed 's/^%s: //' | kbcollect paste -", name, len(nodes), strings.Join(nodes, ", "), nodes[0], name, nodes[0])
		}
		ss, unknown, err := paste.Split(bytes.NewReader(b))
		if err != nil {
			return cli.Usagef("paste: %s: %v", name, err)
		}
		if len(ss) == 0 {
			return cli.Usagef("paste: no command output recognised in %s; put the command line before each output (e.g. \"$ ibv_devinfo -v\")", name)
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
				fmt.Fprintf(c.ErrOrStderr(), "paste: %s:%d: %s, %s (%s)\n", name, s.Line, s.Command, lineCount(s.Lines), how)
			}
			if unknown > 0 {
				fmt.Fprintf(c.ErrOrStderr(), "paste: %s: %s matched no command and %s left out\n", name, lineCount(unknown), map[bool]string{true: "was", false: "were"}[unknown == 1])
			}
		}
		for _, s := range ss {
			// The file's base name only: a record is shared, its folders are the user's.
			from[s.Path] = append(from[s.Path], fmt.Sprintf("%s:%d-%d", filepath.Base(name), s.Line, s.Line+max(s.Lines, 1)-1))
			filters[s.Path] = append(filters[s.Path], s.Filter)
		}
		secs = append(secs, ss...)
	}
	o.where = func(p string) (string, string, bool) {
		w, ok := from[p]
		return strings.Join(w, ", ") + " (pasted)", filterOf(filters[p]), ok
	}
	snap := snapshot.FromFS(paste.FS(secs), "capture", "paste:"+strings.Join(files, ","))
	snap.MaxFile, o.pasted = o.maxFile, true
	return writeRecord(c, o, snap)
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
