package collect

import (
	"io"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/modprobe"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// modprobe reads what keeps modules from loading: the kernel command line,
// /etc/modprobe.conf, then the modprobe.d files in kmod's order (a name in
// /etc/modprobe.d hides the same name in /run, /usr/local/lib, /usr/lib and
// /lib modprobe.d, as modprobe.d(5) says, so the hidden file is not read),
// and a pasted grep of those folders. Only rules naming a module of
// source.RDMAModules are kept: a fleet's records stay small.
func (c *collector) modprobe() {
	row, _ := source.Of(source.ProcCmdline)
	read := func(id string, parse func(io.Reader) ([]modprobe.Rule, error)) {
		r := c.file(id)
		if !r.OK() {
			return
		}
		var rules []modprobe.Rule
		if !c.parse(id, func() (err error) { rules, err = parse(reader(r)); return err }) {
			return
		}
		c.moduleBlocks(id, rules)
	}
	read(string(source.ProcCmdline), modprobe.ParseCmdline)
	read(string(source.EtcModprobeConf), modprobe.Parse)
	hidden := map[string]bool{}
	for _, p := range c.globbed(row) {
		if strings.HasPrefix(p, "sos_commands/") {
			read(p, modprobe.ParseGrep)
			continue
		}
		if hidden[path.Base(p)] {
			continue
		}
		hidden[path.Base(p)] = true
		read(p, modprobe.Parse)
	}
	sort.SliceStable(c.h.ModuleBlocks, func(i, j int) bool {
		a, b := c.h.ModuleBlocks[i], c.h.ModuleBlocks[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Line < b.Line
	})
}

func (c *collector) moduleBlocks(id string, rules []modprobe.Rule) {
	for _, r := range rules {
		if !slices.Contains(source.RDMAModules, r.Module) {
			continue
		}
		c.h.ModuleBlocks = append(c.h.ModuleBlocks, record.ModuleBlock{
			Module: r.Module, Directive: r.Directive, Command: r.Command, Text: r.Text,
			File: r.File, Source: id, Line: r.Line,
		})
	}
}
