package modules

import (
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Module is one loaded module from lsmod or /proc/modules.
type Module struct {
	Name     string
	Size     int64
	RefCount int      // lsmod "Used by" count, /proc/modules refcount
	UsedBy   []string // holders
	State    string   // /proc/modules only: Live, Loading, Unloading
	Taint    string   // /proc/modules only: the "(OE)" flags, without parentheses
}

// ParseLsmod reads `lsmod` output or /proc/modules, telling them apart per
// line. The header and prompt or grep lines are skipped.
func ParseLsmod(r io.Reader) ([]Module, error) {
	var out []Module
	err := lines.Each(r, func(raw string) {
		f := strings.Fields(raw)
		if len(f) < 3 {
			return
		}
		size, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || size < 0 {
			return
		}
		refs, err := strconv.Atoi(f[2])
		if err != nil {
			return
		}
		m := Module{Name: f[0], Size: size, RefCount: refs}
		if len(f) >= 5 && (f[4] == "Live" || f[4] == "Loading" || f[4] == "Unloading") {
			m.State = f[4]
			if f[3] != "-" {
				m.UsedBy = split(f[3])
			}
			if len(f) >= 7 && strings.HasPrefix(f[6], "(") {
				m.Taint = strings.Trim(f[6], "()")
			}
		} else if len(f) >= 4 {
			m.UsedBy = split(f[3])
		}
		out = append(out, m)
	})
	return out, err
}

func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p != "" && p != "[permanent]" {
			out = append(out, p)
		}
	}
	return out
}

// Info is one modinfo block.
type Info struct {
	Name        string // name:, or derived from filename
	Filename    string // filename: "(builtin)" for built-in modules
	Version     string // version: (absent on most in-tree modules)
	SrcVersion  string // srcversion:
	InTree      string // intree: "Y" for in-tree builds
	Vermagic    string // vermagic:
	Signer      string // signer:
	Description string // description:
	RHELVersion string // rhelversion: (RHEL kernels)
	Depends     []string
}

// ParseModinfo reads modinfo output. Each "filename:" line starts a block;
// multi-line values (signatures) and unknown keys are skipped.
func ParseModinfo(r io.Reader) ([]Info, error) {
	var out []Info
	var cur *Info
	err := lines.Each(r, func(raw string) {
		if raw == "" || raw[0] == ' ' || raw[0] == '\t' {
			return
		}
		key, val, ok := strings.Cut(raw, ":")
		if !ok || strings.ContainsAny(key, " \t") {
			return
		}
		val = strings.TrimSpace(val)
		if key == "filename" {
			out = append(out, Info{Filename: val, Name: nameFromFile(val)})
			cur = &out[len(out)-1]
			return
		}
		if cur == nil {
			return
		}
		switch key {
		case "name":
			cur.Name = val
		case "version":
			cur.Version = val
		case "srcversion":
			cur.SrcVersion = val
		case "intree":
			cur.InTree = val
		case "vermagic":
			cur.Vermagic = val
		case "signer":
			cur.Signer = val
		case "description":
			cur.Description = val
		case "rhelversion":
			cur.RHELVersion = val
		case "depends":
			cur.Depends = split(val)
		}
	})
	return out, err
}

// nameFromFile turns ".../mlx5_ib.ko.xz" into "mlx5_ib".
func nameFromFile(f string) string {
	b := path.Base(f)
	if i := strings.Index(b, ".ko"); i > 0 {
		return strings.ReplaceAll(b[:i], "-", "_")
	}
	return ""
}

// OutOfTree reports whether a modinfo filename lies under a module folder
// that holds out-of-tree builds: updates/, extra/ or weak-updates/.
func OutOfTree(filename string) bool {
	for _, d := range []string{"/updates/", "/extra/", "/weak-updates/"} {
		if strings.Contains(filename, d) {
			return true
		}
	}
	return false
}

// Sys holds /sys/module/<name>/ attributes.
type Sys struct {
	Version    string // version: set by MODULE_VERSION
	SrcVersion string // srcversion
	Taint      string // taint, e.g. "OE"
	InitState  string // initstate: "live" for loaded modules
}

// ReadSys reads /sys/module/<name> from fsys (rooted like /). ok is false
// when the folder does not exist; missing attributes stay empty.
func ReadSys(fsys fs.FS, name string) (s Sys, ok bool) {
	dir := path.Join("sys/module", name)
	if fi, err := fs.Stat(fsys, dir); err != nil || !fi.IsDir() {
		return s, false
	}
	s.Version = attr(fsys, dir, "version")
	s.SrcVersion = attr(fsys, dir, "srcversion")
	s.Taint = attr(fsys, dir, "taint")
	s.InitState = attr(fsys, dir, "initstate")
	return s, true
}

const maxAttr = 4096

func attr(fsys fs.FS, dir, name string) string {
	f, err := fsys.Open(path.Join(dir, name))
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxAttr))
	return strings.TrimSpace(string(b))
}
