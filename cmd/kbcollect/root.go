package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/collect"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/redact"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/suggest"
)

type rootOptions struct {
	root     string
	rootArg  bool // root was given as the SNAPSHOT argument, not --root
	format   string
	noRedact bool
	salt     string
	saltFile string
	timeout  time.Duration
	jobs     int
	maxFile  int64
	output   string
	noTools  bool
	quiet    bool
	pasted   bool // kbcollect paste
	// where, when set, rewrites a source's path in the record: a paste
	// names the file and lines each output came from.
	where func(path string) (where, filter string, ok bool)
	// problems are added to the record: what a paste says of the host
	// the record is of.
	problems []string
	// outDir, when set, is the folder the record is written to, named
	// by its (redacted) host id: kbcollect paste -o FOLDER/. A record
	// with no host id is named unnamed, or "unnamed" when that is empty.
	outDir  string
	unnamed string
	// written are the names this run wrote into outDir: two hosts whose
	// ids redact to one token (24 bits: about 3% of pastes of 1,000
	// hosts) are two files, never one overwriting the other.
	written map[string]bool
	// pasteSalt, when set, is the salt used when none is given: the
	// paste's digest, so that a paste's records come out the same run
	// after run (and those of its several hosts share their tokens).
	pasteSalt string
}

func newRootCmd() *cobra.Command {
	var o rootOptions
	c := &cobra.Command{
		Use:   "kbcollect [SNAPSHOT]",
		Short: "Write a RoCE host record from a live host, a copied tree, an sosreport or a capture",
		Long: `kbcollect reads what a host says about its RDMA over Converged Ethernet (RoCE)
adapters and writes one host record (TOML by default) to standard output.

What it reads:
  (nothing)           the running host, read-only: /sys, /proc, /etc, and the RDMA
                      tools that are installed (ibv_devinfo, rdma, devlink, ethtool,
                      lspci, dmesg …). Each tool runs with a timeout and an output cap,
                      a few at a time; a missing tool is recorded as absent. Root is
                      not needed: what cannot be read is recorded as failed.
  --root DIR          a copied tree laid out like / (sys/, proc/, etc/ …), such as a
                      test fixture or an extracted sosreport.
  SNAPSHOT            an sosreport, a SUSE supportconfig, an NVIDIA sysinfo-snapshot or
                      a capture: a folder, or a .tar, .tar.gz (.tgz), .tar.xz or
                      .tar.bz2 file, read in memory without extracting anything.
                      (--root and --snapshot accept these too.)

Limits: every file and command output is capped at --max-file bytes (default
16 MiB = 16777216); a larger one is kept truncated and listed as a problem. An
archive keeps at most 1 GiB of content in memory, and an .xz stream may ask for a
dictionary of at most 256 MiB. Symlinks are resolved inside the
snapshot; a member or link that points outside it is listed as a problem, never read.

Redaction is on by default: MAC, IPv4 and IPv6 addresses, node and port GUIDs, the
interface-id half of each GID, serial numbers and host names become tokens such as
mac-3f2a9c. A GID keeps its type and the fact that it is IPv4-mapped; its subnet
prefix is kept only when it is the link-local fe80::/64 every port has. Any other
IPv6 prefix names a site and a subnet, so it becomes a token that keeps its scope:
ipv6-global-…, ipv6-unique-local-… (fc00::/7), ipv6-link-local-…. Tokens are
HMAC-SHA256 of the value keyed by --salt: give the same salt on every host of a fleet
to get the same token for the same value. Without --salt the key is the snapshot's
/etc/machine-id (same host, same tokens), or random when there is none (for
kbcollect paste: the paste's digest).

Examples:
  kbcollect > host.toml                        # this host, redacted
  kbcollect --no-redact --format json          # keep the real addresses
  kbcollect --salt "$FLEET_SECRET" -o "$(hostname).toml"
  kbcollect --salt-file /run/fleet-salt -o "$(hostname).toml"   # contrib/ansible does this
  kbcollect sosreport-host1-2024-05-01-abcdef.tar.xz
  kbcollect --root ./extracted-sosreport
  kbcollect capture -o host.tar.gz             # save raw data to parse later
  kbcollect host.tar.gz                        # parse a capture, here or elsewhere
  kbcollect paste ticket-1234.txt              # command output a customer pasted

After the record, one line on standard error says what was found and which
tools were absent, with the package that installs each (Debian's name, then
RHEL's after a slash): pciutils (lspci), ethtool, iproute2/iproute (devlink,
rdma), ibverbs-utils/libibverbs-utils (ibv_devinfo, ibv_devices),
infiniband-diags (ibstat, ibstatus), kmod (lsmod, modinfo). --quiet drops it.
` + exitCodesHelp,
		Args:    cobra.MaximumNArgs(1),
		Version: cli.Version(),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				if o.root != "" && o.root != args[0] {
					return cli.Usagef("give the snapshot once: as an argument or with --root, not both")
				}
				o.root, o.rootArg = args[0], true
			}
			return runCollect(c, o)
		},
	}
	c.SetVersionTemplate("kbcollect {{.Version}}\n")
	f := c.Flags()
	f.StringVar(&o.root, "root", "", "read a copied tree, sosreport or capture (folder or tarball) instead of the live host")
	f.StringVar(&o.root, "snapshot", "", "the same as --root")
	addRecordFlags(c, &o)
	f.BoolVar(&o.noTools, "no-tools", false, "live host: run no tool, read only /sys, /proc and /etc")
	addLimitFlags(c, &o.timeout, &o.jobs, &o.maxFile)
	c.AddCommand(newCaptureCmd(), newPasteCmd())
	cli.Completion(c)
	return c
}

// exitCodesHelp is kbcollect's own; kbgen's (cli.ExitCodesHelp) speaks of
// findings, which kbcollect never judges.
const exitCodesHelp = `
Exit status:
  0  the record (or capture) was written
  1  failure: the collector failed, or the output could not be written
  2  usage error, or a snapshot or output path that could not be used`

// addRecordFlags adds the flags of how a record is written, which
// kbcollect and kbcollect paste share.
func addRecordFlags(c *cobra.Command, o *rootOptions) {
	f := c.Flags()
	f.StringVar(&o.format, "format", "toml", "output format: toml or json")
	f.BoolVar(&o.noRedact, "no-redact", false, "keep MAC/IP addresses, GUIDs, serial numbers and host names")
	f.StringVar(&o.salt, "salt", "", "key for redaction tokens; the same salt gives the same tokens across hosts")
	f.StringVar(&o.saltFile, "salt-file", "", "read the salt from FILE (its first line), keeping it off command lines and out of process listings")
	c.MarkFlagsMutuallyExclusive("salt", "salt-file")
	f.StringVarP(&o.output, "output", "o", "", "write the record to FILE (atomically) instead of standard output")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing on standard error but errors (no summary line)")
}

func addLimitFlags(c *cobra.Command, timeout *time.Duration, jobs *int, maxFile *int64) {
	c.Flags().DurationVar(timeout, "timeout", snapshot.DefaultTimeout, "live host: time limit for each tool")
	c.Flags().IntVar(jobs, "jobs", snapshot.DefaultJobs, "live host: tools run at the same time")
	c.Flags().Int64Var(maxFile, "max-file", snapshot.DefaultMaxFile, "cap in bytes for each file and command output (16 MiB)")
}

func checkLimits(timeout time.Duration, jobs int, maxFile int64) error {
	switch {
	case timeout <= 0:
		return cli.Usagef("--timeout must be positive, e.g. 5s")
	case jobs < 1 || jobs > 64:
		return cli.Usagef("--jobs must be between 1 and 64")
	case maxFile < 1024 || maxFile > 1<<30:
		return cli.Usagef("--max-file must be between 1024 and 1073741824 bytes")
	}
	return nil
}

func runCollect(c *cobra.Command, o rootOptions) error {
	if o.format != "toml" && o.format != "json" {
		return cli.Usagef("unknown --format %q (want toml or json)", o.format)
	}
	if err := checkLimits(o.timeout, o.jobs, o.maxFile); err != nil {
		return err
	}
	var snap *snapshot.Snapshot
	if o.root == "" {
		snap = snapshot.Live()
	} else {
		s, err := snapshot.OpenWith(o.root, o.maxFile)
		if err != nil {
			return snapshotError(o, err)
		}
		snap = s
	}
	snap.MaxFile, snap.Timeout, snap.Jobs, snap.NoTools = o.maxFile, o.timeout, o.jobs, o.noTools
	snap.Prefetch()
	return writeRecord(c, o, snap)
}

// snapshotError says which snapshot could not be opened, as it was given.
// A bare word that names no file is more likely a mistyped command, or a
// way of saying "this host", than a snapshot: say so.
func snapshotError(o rootOptions, err error) error {
	if !o.rootArg {
		return cli.Usagef("--root: %v", err)
	}
	hint := ""
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(o.root, `/\.`) {
		if s := suggest.Closest(o.root, []string{"capture", "paste", "help", "completion"}, 1); len(s) > 0 {
			hint = fmt.Sprintf(" (did you mean kbcollect %s?)", s[0])
		} else {
			hint = "; to read this host give no SNAPSHOT: kbcollect -o host.toml"
		}
	}
	return cli.Usagef("snapshot %q: %v%s", o.root, err, hint)
}

// writeRecord collects snap, redacts the record unless told not to, writes
// it and prints the summary line.
func writeRecord(c *cobra.Command, o rootOptions, snap *snapshot.Snapshot) error {
	h, err := collectHost(snap)
	if err != nil {
		return cli.Fail(err)
	}
	if o.where != nil {
		for i := range h.Sources {
			if p, f, ok := o.where(h.Sources[i].Path); ok {
				h.Sources[i].Path, h.Sources[i].Filter = p, f
			}
		}
	}
	salt := o.salt
	if !o.noRedact {
		switch {
		case o.saltFile != "":
			b, err := os.ReadFile(o.saltFile)
			if err != nil {
				return cli.Usagef("--salt-file: %v", err)
			}
			salt, _, _ = strings.Cut(string(b), "\n")
			if salt = strings.TrimRight(salt, "\r"); salt == "" {
				return cli.Usagef("--salt-file %s: the first line is empty", o.saltFile)
			}
		case !c.Flags().Changed("salt") && o.pasteSalt != "":
			salt = o.pasteSalt
		case !c.Flags().Changed("salt"):
			salt = defaultSalt(snap)
		}
	}
	// What the paste says of itself: recorded before redaction, which
	// scrubs the host names any of it holds.
	for _, p := range o.problems {
		h.Problems = append(h.Problems, record.Problem{Source: "paste", Msg: p})
	}
	if !o.noRedact {
		redact.New(salt, hostnames(snap, h)...).Host(h)
	}
	// A log line may carry an escape sequence or a bidi override: written
	// escaped, the record is one kbgen accepts and shows as it was.
	record.EscapeHidden(h)
	var buf bytes.Buffer
	if err := record.Encode(&buf, h, o.format); err != nil {
		return cli.Fail(err)
	}
	out := o.output
	if o.outDir != "" {
		name := recordName(h.Host.ID)
		if h.Host.ID == "" && o.unnamed != "" {
			name = recordName(o.unnamed)
		}
		if o.written != nil {
			base := name
			for n := 2; o.written[name]; n++ {
				name = fmt.Sprintf("%s-%d", base, n)
			}
			if name != base {
				fmt.Fprintf(c.ErrOrStderr(), "kbcollect: %s.%s is another host's of this paste (their ids redact alike); this one is written as %s.%s\n", base, o.format, name, o.format)
			}
			o.written[name] = true
		}
		out = filepath.Join(o.outDir, name+"."+o.format)
	}
	if err := writeOutput(c, out, buf.Bytes()); err != nil {
		return err
	}
	if !o.quiet {
		sum := summaryOf(h, o.pasted)
		if o.outDir != "" {
			sum = strings.Replace(sum, "kbcollect: ", "kbcollect: "+out+": ", 1)
		}
		fmt.Fprintln(c.ErrOrStderr(), sum)
	}
	return nil
}

// collectHost runs the collector, which returns the finished record, and
// stamps it with this kbcollect's version.
func collectHost(snap *snapshot.Snapshot) (*record.Host, error) {
	h, err := collect.Collect(snap)
	if err != nil {
		return nil, err
	}
	h.Host.Collector = cli.Version()
	return h, nil
}

// defaultSalt keys redaction by the host's machine id, so the same host
// gives the same tokens run after run without publishing a guessable key.
func defaultSalt(snap *snapshot.Snapshot) string {
	if r := snap.File("etc/machine-id"); r.OK() {
		if id := strings.TrimSpace(string(r.Data)); id != "" {
			return "machine-id:" + id
		}
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// hostnames gathers the names the host goes by, to scrub them from text.
func hostnames(snap *snapshot.Snapshot, h *record.Host) []string {
	names := []string{h.Host.ID}
	// Every place the source table's hostname row reads: its files, and
	// its command's output where sos or a capture keeps it.
	row, _ := source.Of(source.EtcHostname)
	for _, p := range hostnamePaths(row) {
		if r := snap.File(p); r.OK() && len(r.Data) < 1024 {
			names = append(names, strings.TrimSpace(string(r.Data)))
		}
	}
	// uname -a's second word is the host name.
	if r := snap.Command("uname -a"); r.OK() {
		if f := strings.Fields(string(r.Data)); len(f) > 1 {
			names = append(names, f[1])
		}
	}
	// The other machines /etc/hosts names (storage targets, peers) are
	// identifying too, short names included, which no shape finds; a name
	// without a digit, dot or dash ("storage", "gateway") is also a word
	// of log lines, and stays.
	if r := snap.File("etc/hosts"); r.OK() && len(r.Data) < 1<<20 {
		for _, line := range strings.Split(string(r.Data), "\n") {
			line, _, _ = strings.Cut(line, "#")
			f := strings.Fields(line)
			for i := 1; i < len(f); i++ {
				if n := strings.ToLower(f[i]); !strings.HasPrefix(n, "localhost") && !strings.HasPrefix(n, "ip6-") && strings.ContainsAny(n, "0123456789.-") {
					names = append(names, f[i])
				}
			}
		}
	}
	return names
}

// hostnamePaths lists the snapshot files of the hostname row: its Files,
// and for its commands the sos path, sos's other plugin folder for it
// (general, before sos 3.6) and the top-level links sos makes.
func hostnamePaths(row source.Tool) []string {
	var out []string
	for _, f := range row.Files {
		out = append(out, string(f))
	}
	for _, c := range row.Commands {
		out = append(out, source.SosPath(c.Line), "sos_commands/general/"+source.SosName(c.Line))
		out = append(out, c.Also...)
	}
	return out
}

// recordName is the file name (without extension) of a record of a host
// id: the id with anything but letters, digits, '-', '_' and '.' as '_',
// and "unnamed" for none.
func recordName(id string) string {
	if id == "" {
		return "unnamed"
	}
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if b[0] == '.' {
		b[0] = '_'
	}
	return string(b)
}
