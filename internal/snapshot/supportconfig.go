package snapshot

import (
	"bytes"
	"io/fs"
	"path"
	"strings"

	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/supportconfig"
)

// supportconfigMarkers are files every supportconfig writes at its top
// (bin/supportconfig: basic_environment and basic_health_check are its
// minimum functions).
var supportconfigMarkers = []string{"basic-environment.txt", "basic-health-check.txt"}

// isSupportconfig reports whether the tree is a SUSE supportconfig.
func isSupportconfig(fsys fs.FS) bool {
	for _, m := range supportconfigMarkers {
		if fi, err := fs.Stat(fsys, m); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// openSupportconfig lays a supportconfig out as the collector reads a
// tree: its files stay, and each section of its *.txt files is also
// offered where the source table looks: a command's output at
// sos_commands/<file>/<sos name of the command line> (hardware.txt's
// "/sbin/lspci -nn" at sos_commands/hardware/lspci_-nn), a configuration
// or log file at its own path (basic-environment.txt's /etc/os-release
// at etc/os-release, messages.txt's /var/log/messages at
// var/log/messages). The first file (in name order) to hold a section
// wins.
func (s *Snapshot) openSupportconfig() {
	tree := newMemTree()
	entries, _ := fs.ReadDir(s.fsys, ".")
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		r := s.File(e.Name())
		if !r.OK() {
			continue
		}
		tree.add(e.Name(), &memNode{data: r.Data, size: int64(len(r.Data)), truncated: r.Truncated})
		name, ok := strings.CutSuffix(e.Name(), ".txt")
		if !ok {
			continue
		}
		secs, _ := supportconfig.Parse(bytes.NewReader(r.Data))
		for _, sec := range secs {
			if sec.Missing || sec.Body == "" {
				continue
			}
			p := sec.FilePath()
			if p == "" && sec.Kind == supportconfig.Command {
				if cl := supportconfig.CommandLine(sec.Label); cl != "" {
					p = path.Join("sos_commands", name, source.SosName(cl))
				}
			}
			if p == "" || tree.nodes[p] != nil {
				continue
			}
			tree.add(p, &memNode{data: []byte(sec.Body), size: int64(len(sec.Body))})
		}
	}
	tree.finish()
	s.fsys = &treeFS{b: tree, st: s.st}
	s.Kind = KindSupportconfig
}
