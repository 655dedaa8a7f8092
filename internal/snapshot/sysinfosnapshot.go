package snapshot

import (
	"bytes"
	"io/fs"
	"path"
	"strings"

	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/sysinfosnapshot"
)

// Folders sysinfo-snapshot.py writes in its output folder: err_messages/
// in every version (3.1.8 on), commands_txt_output/ since 3.6.1.
const (
	sysinfoCommands = "commands_txt_output"
	sysinfoErrors   = "err_messages"
	sysinfoFirmware = "firmware"
	// rdma_tool/ holds, with --rdma_debug (3.6.5 on), MLNX iproute2's
	// rdma resource outputs, one file each, its command line on line 1
	// (rdma_tool_handler in sysinfo-snapshot.py).
	sysinfoRDMA = "rdma_tool"
)

// isSysinfoSnapshot reports whether the tree is the output folder of
// NVIDIA's sysinfo-snapshot: its commands_txt_output/, or its
// err_messages/ beside an HTML file.
func isSysinfoSnapshot(fsys fs.FS) bool {
	if fi, err := fs.Stat(fsys, sysinfoCommands); err == nil && fi.IsDir() {
		return true
	}
	if fi, err := fs.Stat(fsys, sysinfoErrors); err != nil || !fi.IsDir() {
		return false
	}
	html, _ := fs.Glob(fsys, "*.html")
	return len(html) > 0
}

// openSysinfoSnapshot lays a sysinfo-snapshot out as the collector reads
// a tree: each command's output at its sos path (source.SosPath: the
// "ibv_devinfo -v" of commands_txt_output/ibv_devinfo_v.txt or of the
// HTML's section at sos_commands/infiniband/ibv_devinfo_-v), each file
// the HTML shows at its own path (/proc/modules at proc/modules). The
// files it read stay at their paths. The first to hold an output wins:
// commands_txt_output/ (the output as it was), firmware/, rdma_tool/, the files beside
// the HTML, then the HTML's sections (tabs and non-ASCII characters lost).
func (s *Snapshot) openSysinfoSnapshot() {
	tree := newMemTree()
	put := func(p, body string) {
		if p != "" && tree.nodes[p] == nil && body != "" {
			tree.add(p, &memNode{data: []byte(body), size: int64(len(body))})
		}
	}
	command := func(o sysinfosnapshot.Output) {
		if cl := o.CommandLine(); cl != "" && !o.Missing() && !strings.ContainsAny(cl, "|<>") {
			put(source.SosPath(cl), o.Body)
		}
	}
	read := func(p string) ([]byte, bool) {
		r := s.File(p)
		if !r.OK() {
			return nil, false
		}
		tree.add(p, &memNode{data: r.Data, size: int64(len(r.Data)), truncated: r.Truncated})
		return r.Data, true
	}
	for _, dir := range []string{sysinfoCommands, sysinfoFirmware, sysinfoRDMA} {
		entries, _ := fs.ReadDir(s.fsys, dir)
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			data, ok := read(path.Join(dir, e.Name()))
			if !ok {
				continue
			}
			if o, ok, _ := sysinfosnapshot.ParseFile(bytes.NewReader(data)); ok {
				command(o)
			}
		}
	}
	var html []string
	entries, _ := fs.ReadDir(s.fsys, ".")
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if strings.HasSuffix(e.Name(), ".html") {
			html = append(html, e.Name())
		}
	}
	for _, name := range sysinfosnapshot.ExternalFiles() {
		if fi, err := fs.Stat(s.fsys, name); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		data, ok := read(name)
		if !ok {
			continue
		}
		if cl := sysinfosnapshot.External(name, data); cl != "" {
			put(source.SosPath(cl), string(data))
		}
	}
	for _, name := range html {
		data, ok := read(name)
		if !ok {
			continue
		}
		secs, _ := sysinfosnapshot.ParseHTML(bytes.NewReader(data))
		for _, o := range secs {
			switch o.Title {
			case "ethtool_all_interfaces", "eth_tool_all_interfaces":
				for _, b := range sysinfosnapshot.SplitEthtool(o) {
					command(b)
				}
				continue
			}
			if p := o.FilePath(); p != "" && !o.Missing() {
				put(p, o.Body)
				continue
			}
			command(o)
		}
	}
	tree.finish()
	s.fsys = &treeFS{b: tree, st: s.st}
	s.Kind = KindSysinfoSnapshot
}
