package collect

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/grepfilter"
	"github.com/rocekb/rocekb/internal/modules"
	"github.com/rocekb/rocekb/internal/osinfo"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
)

// modState is what the collector knows about one module.
type modState struct {
	rec     record.Module
	loaded  bool   // listed by lsmod, /proc/modules or sys/module initstate
	logVer  string // a version printed in the kernel log
	logSrc  string
	infoSrc string // where modinfo came from
	inTree  string // modinfo intree
}

// seeModule notes a module a source names without proving it loaded;
// loaded modules are left out, and the first source to name one wins.
func (c *collector) seeModule(name, loaded, src string, line int) *record.ModuleSeen {
	if m, ok := c.modules[name]; ok && m.loaded {
		return nil
	}
	if s, ok := c.seen[name]; ok {
		return s
	}
	s := &record.ModuleSeen{Name: name, Loaded: loaded, Source: src, Line: line}
	c.seen[name] = s
	return s
}

// loadedKnown reports whether a list of the loaded modules was read.
func (c *collector) loadedKnown() bool {
	for _, id := range []source.ID{source.Lsmod, source.ProcModules} {
		if c.sources[string(id)].Status == record.StatusOK {
			return true
		}
	}
	return false
}

func (c *collector) module(name string) *modState {
	m, ok := c.modules[name]
	if !ok {
		m = &modState{rec: record.Module{Name: name}}
		c.modules[name] = m
	}
	return m
}

// loadModules reads the loaded modules and their /sys/module attributes.
func (c *collector) loadModules() {
	r, id, ok := c.firstCommand("lsmod")
	if !ok {
		r, id, ok = c.firstFile(string(source.ProcModules))
	}
	if ok {
		c.parse(id, func() error {
			mods, err := modules.ParseLsmod(reader(r))
			for _, lm := range mods {
				m := c.module(lm.Name)
				m.loaded = true
				m.rec.Size, m.rec.UsedBy, m.rec.Taint = lm.Size, lm.UsedBy, lm.Taint
			}
			return err
		})
	}
	const sysID = string(source.SysModule)
	entries, err := fs.ReadDir(c.s.FS(), sysID)
	if err != nil {
		c.noteStatus(sysID, sysID, record.StatusAbsent, "not in snapshot")
	} else {
		c.noteStatus(sysID, sysID, record.StatusOK, "")
	}
	if !ok {
		// Without lsmod, a module folder with an initstate is a loaded module
		// (built-in ones have none).
		for _, e := range entries {
			if s, has := modules.ReadSys(c.s.FS(), e.Name()); has && s.InitState != "" {
				c.module(e.Name()).loaded = true
			}
		}
	}
	for name, m := range c.modules {
		if s, has := modules.ReadSys(c.s.FS(), name); has {
			m.rec.Version, m.rec.SrcVersion = s.Version, s.SrcVersion
			if s.Taint != "" {
				m.rec.Taint = s.Taint
			}
		}
	}
}

// loadModinfo reads modinfo: sos's modinfo_ALL_MODULES, else one
// `modinfo <m>` per RDMA-relevant module.
func (c *collector) loadModinfo(wanted []string) {
	const all = string(source.ModinfoAll)
	type src struct {
		r      snapshot.Result
		id     string
		module string // the module a "modinfo <module>" names; "" for a file of many
	}
	var sources []src
	if r := c.s.File(all); r.OK() {
		c.note(all, r)
		sources = append(sources, src{r, all, ""})
	} else {
		for _, m := range wanted {
			r, id := c.command("modinfo " + m)
			if r.OK() {
				sources = append(sources, src{r, id, m})
			}
		}
	}
	if len(sources) == 0 {
		// An sosreport of sos before 3.5.1 names the file by its command
		// line (the modinfo row's Globs).
		row, _ := source.Of(source.ModinfoAll)
		// A paste's "modinfo mlx5_core" is laid out there too: a name
		// that is one RDMA module's is that module's output.
		c.eachGlobbed(row, func(p string, r snapshot.Result) {
			m := strings.TrimPrefix(path.Base(p), "modinfo_")
			if !slices.Contains(source.RDMAModules, m) {
				m = ""
			}
			sources = append(sources, src{r, p, m})
		})
	}
	wantedSet := map[string]bool{}
	for _, m := range wanted {
		wantedSet[m] = true
	}
	for _, src := range sources {
		c.parse(src.id, func() error {
			out, err := modules.ParseModinfoAll(reader(src.r))
			if rel, how := out.KernelRelease(); rel != "" && c.h.Host.KernelRelease == "" {
				c.h.Host.KernelRelease = rel
				c.h.Host.KernelReleaseFrom = fmt.Sprintf("%s (%s)", src.id, how)
			}
			for _, in := range out.Modules {
				if in.Name == "" && in.Filename == "" {
					// Lines of modinfo piped through grep name no module:
					// they are the one the command line names.
					in.Name = src.module
				}
				// Without a list of loaded modules, modinfo says only that a
				// module exists: it is recorded as not known to be loaded.
				if !c.loadedKnown() && (wantedSet[in.Name] || slices.Contains(source.RDMAModules, in.Name)) {
					if s := c.seeModule(in.Name, record.LoadedNotKnown, src.id, 0); s != nil && s.Filename == "" {
						s.Version, s.SrcVersion, s.Filename = in.Version, in.SrcVersion, in.Filename
					}
				}
				m, ok := c.modules[in.Name]
				if !ok || m.infoSrc != "" {
					continue
				}
				m.infoSrc, m.inTree = src.id, in.InTree
				m.rec.Filename = in.Filename
				if m.rec.Version == "" {
					m.rec.Version = in.Version
				}
				if m.rec.SrcVersion == "" {
					m.rec.SrcVersion = in.SrcVersion
				}
			}
			return err
		})
	}
}

// stack reads `ofed_info -s`.
func (c *collector) stack() {
	r, id, ok := c.firstCommand("ofed_info -s", "ofed_info -n")
	if !ok {
		return
	}
	c.parse(id, func() error {
		o, found, err := osinfo.ParseOFEDInfo(reader(r))
		if found {
			c.h.Stack = &record.Stack{Name: nonEmpty(o.Name, "OFED"), Version: o.Version, Raw: o.Raw, From: id}
		}
		return err
	})
}

var (
	// MLNX_OFED and DOCA-OFED module and driver versions look like
	// 5.8-1.0.1 or 23.10-1.1.9 (MODULE_VERSION(DRIVER_VERSION) in
	// mlnx-ofa_kernel; facts §6); inbox mlx drivers printed "5.0-0".
	ofedVersionRE = regexp.MustCompile(`^v?\d+\.\d+-\d+\.\d+\.\d+`)
	// Cisco's enic/enic_rdma kmods: 4.0.0.6-802.21, 1.0.0.6-802.21 (facts §2.1).
	ciscoVersionRE = regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+-\d+[.-]\d+$`)
	logVersionRE   = regexp.MustCompile(`(?i)\b(?:ver(?:sion)?\s*|v)(\d+\.\d+[\w.\-]*\d)`)
)

func mlxFamily(name string) bool {
	for _, p := range []string{"mlx", "ib_", "rdma_", "iw_cm", "knem"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func ciscoFamily(name string) bool { return name == "enic" || name == "enic_rdma" }

// origin judges where a module or driver comes from, and says why.
func (c *collector) origin(name, version string) (string, string) {
	m := c.modules[name]
	var taint, file, inTree string
	if m != nil {
		taint, file, inTree = m.rec.Taint, m.rec.Filename, m.inTree
		if version == "" {
			version = m.rec.Version
		}
		if version == "" {
			version = m.logVer
		}
	}
	compat := c.modules["mlx_compat"]
	usesCompat := false
	if compat != nil && name != "mlx_compat" {
		for _, u := range compat.rec.UsedBy {
			usesCompat = usesCompat || u == name
		}
	}
	outOfTree, oot := "", ""
	switch {
	case strings.Contains(taint, "O"):
		outOfTree, oot = "taint "+taint+" (O: out-of-tree module)", "taint"
	case modules.OutOfTree(file):
		outOfTree, oot = "modinfo filename "+file+" is out of tree", "file"
	}
	kernel := c.h.Host.KernelRelease
	switch {
	case name == "mlx_compat":
		return record.OriginOFED, "mlx_compat is the MLNX_OFED/DOCA-OFED compat layer"
	case usesCompat:
		return record.OriginOFED, "uses mlx_compat (the MLNX_OFED/DOCA-OFED compat layer)"
	case ciscoFamily(name) && ciscoVersionRE.MatchString(version):
		return record.OriginVendor, "version " + version + " has the form of Cisco's enic/enic_rdma kmods"
	case mlxFamily(name) && ofedVersionRE.MatchString(version):
		return record.OriginOFED, "version " + version + " has the MLNX_OFED/DOCA-OFED form"
	case outOfTree != "" && mlxFamily(name) && c.h.Stack != nil:
		return record.OriginOFED, outOfTree + ", and " + c.h.Stack.Raw + " is installed"
	case outOfTree != "":
		_ = oot
		return record.OriginVendor, outOfTree
	case inTree == "Y":
		return record.OriginInbox, "modinfo intree: Y"
	case strings.Contains(file, "/kernel/"):
		return record.OriginInbox, "modinfo filename " + file + " is in the kernel's own tree"
	case version != "" && kernel != "" && (version == kernel || len(version) >= 31 && strings.HasPrefix(kernel, version)):
		return record.OriginInbox, "version equals the kernel release (in-tree drivers report it since Linux commit 6a7e25c7fb48)"
	}
	if mlxFamily(name) && m != nil && m.loaded && (compat == nil || !compat.loaded) && c.listsWhole(source.Lsmod, "mlx_compat") {
		return record.OriginInbox, "lsmod lists no mlx_compat, the compat layer every MLNX_OFED/DOCA-OFED module uses"
	}
	why := "no version, taint or modinfo evidence"
	if c.h.Stack != nil && mlxFamily(name) {
		why += "; " + c.h.Stack.Raw + " is installed, but nothing ties this module to it"
	}
	return record.OriginUnknown, why
}

// listsWhole reports whether source id was read and would show a line
// starting with name: read whole, or pasted through a filter that surely
// lets it through. "lsmod | grep mlx5" lacking mlx_compat says nothing of
// mlx_compat, which its grep never shows.
func (c *collector) listsWhole(id source.ID, name string) bool {
	src := c.sources[string(id)]
	if src.Status != record.StatusOK {
		return false
	}
	f := c.s.Filters[src.Path]
	return f == "" || grepfilter.Passes(f, name)
}

// modinfo reads modinfo for the loaded RDMA modules, the adapters' drivers
// and the devices' providers.
func (c *collector) modinfo() {
	wanted := map[string]bool{}
	for _, m := range source.RDMAModules {
		if ms, ok := c.modules[m]; ok && ms.loaded {
			wanted[m] = true
		}
	}
	for _, a := range c.adapters {
		if a.Driver.Name != "" {
			wanted[a.Driver.Name] = true
		}
	}
	for _, d := range c.devices {
		if d.Provider != "" {
			wanted[d.Provider] = true
		}
	}
	var list []string
	for m := range wanted {
		list = append(list, m)
	}
	sort.Strings(list)
	for _, m := range list {
		c.module(m)
	}
	c.loadModinfo(list)
}

// origins fills module and driver versions and origins, and the Cisco or
// compat-layer stack when ofed_info gave none.
func (c *collector) origins() {
	// The version a module's own files do not give, its adapters' driver
	// (ethtool -i) may: an OFED mlx5_core that ethtool reports as
	// 5.4-3.1.0 is not inbox because /sys/module was not copied. The
	// lowest address's version, for a stable choice.
	driverVersion := map[string]string{}
	for _, addr := range slices.Sorted(maps.Keys(c.adapters)) {
		a := c.adapters[addr]
		if a.Driver.Name != "" && a.Driver.Version != "" && driverVersion[a.Driver.Name] == "" {
			driverVersion[a.Driver.Name] = a.Driver.Version
		}
	}
	for _, m := range c.modules {
		if m.loaded {
			v := ""
			if m.rec.Version == "" {
				v = driverVersion[m.rec.Name]
			}
			m.rec.Origin, _ = c.origin(m.rec.Name, v)
		}
	}
	for _, a := range c.adapters {
		name := a.Driver.Name
		if name == "" {
			continue
		}
		m := c.modules[name]
		if m != nil {
			fill(&a.Driver.Version, m.rec.Version, &a.From, "driver.version", "sys/module/"+name+"/version")
			fill(&a.Driver.Version, m.logVer, &a.From, "driver.version", m.logSrc)
			fill(&a.Driver.SrcVersion, m.rec.SrcVersion, &a.From, "driver.srcversion", "sys/module/"+name+"/srcversion")
		}
		a.Driver.Origin, a.Driver.OriginWhy = c.origin(name, a.Driver.Version)
	}
	if c.h.Stack == nil {
		if m := c.modules["enic_rdma"]; m != nil && m.loaded || m != nil && m.logVer != "" {
			v := nonEmpty(m.rec.Version, m.logVer)
			if ciscoVersionRE.MatchString(v) {
				c.h.Stack = &record.Stack{Name: "cisco-enic", Version: v, Raw: "enic_rdma " + v, From: nonEmpty(m.logSrc, "sys/module/enic_rdma/version")}
			}
		}
	}
	if c.h.Stack == nil {
		for _, e := range c.h.KernelLog {
			if e.Module == "mlx_compat" {
				c.h.Stack = &record.Stack{Name: "OFED", Raw: e.Text, From: fmt.Sprintf("%s line %d", e.Source, e.Line)}
				break
			}
		}
	}
	if c.h.Stack == nil {
		if m := c.modules["mlx_compat"]; m != nil && m.loaded {
			c.h.Stack = &record.Stack{Name: "OFED", Version: m.rec.Version, Raw: "mlx_compat module loaded", From: string(source.Lsmod)}
		}
	}
}
