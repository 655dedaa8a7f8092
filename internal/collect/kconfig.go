package collect

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/kconfig"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// kconfig reads the running kernel's build configuration, first found of:
// /boot/config-<the record's kernel release>, a pasted one named for the
// running kernel (config-$(uname -r)) or for several (a grep of
// /boot/config-*, whose lines name their file), and /proc/config.gz. A
// /boot/config-<release> of another release is another installed kernel's
// and is not read. It keeps the options kconfig.Relevant names.
func (c *collector) kconfig() {
	row, _ := source.Of(source.ProcConfigGz)
	rel := c.h.Host.KernelRelease
	var paths []string
	if releaseRE.MatchString(rel) {
		paths = append(paths, "boot/config-"+rel)
	}
	for _, p := range c.globbed(row) {
		// A name that is no release: the shell's $(uname -r) as pasted,
		// or grep's /boot/config-* whose lines name their files.
		if r := kconfig.Release(p); strings.ContainsAny(r, "$`*") {
			paths = append(paths, p)
		}
	}
	paths = append(paths, string(source.ProcConfigGz))
	for _, p := range paths {
		r := c.file(p)
		if !r.OK() {
			continue
		}
		if bytes.HasPrefix(r.Data, []byte{0x1f, 0x8b}) {
			if r = c.gunzip(p, r); !r.OK() {
				continue
			}
		}
		var kc *record.KernelConfig
		c.parse(p, func() error {
			cfgs, err := kconfig.Parse(reader(r))
			kc = pickConfig(cfgs, p, rel)
			return err
		})
		if kc != nil {
			c.h.KernelConfig = kc
			return
		}
	}
}

// releaseRE matches a kernel release that can name a file
// (6.1.0-18-amd64, 4.18.0-425.3.1.el8.x86_64, 5.15.0-1019-azure+).
var releaseRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+~-]{0,127}$`)

// pickConfig is the configuration of the running kernel among those a
// file holds: its unprefixed lines, or those grep named by the file of
// the record's release. nil when none is.
func pickConfig(cfgs []kconfig.Config, p, rel string) *record.KernelConfig {
	for _, cfg := range cfgs {
		fileRel := kconfig.Release(p)
		if cfg.File != "" {
			fileRel = kconfig.Release(cfg.File)
			if rel == "" || fileRel != rel {
				continue
			}
		}
		if strings.ContainsAny(fileRel, "$`*") {
			fileRel = "" // the running kernel, its release not spelled
		}
		kc := &record.KernelConfig{Release: fileRel, Source: p}
		for _, o := range cfg.Options {
			if kconfig.Relevant(o.Name) {
				kc.Options = append(kc.Options, record.KernelOption{Name: o.Name, Value: o.Value, Line: o.Line})
			}
		}
		return kc
	}
	return nil
}
