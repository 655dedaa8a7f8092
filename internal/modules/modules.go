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

// once are the keys modinfo prints at most once per module: one seen
// again starts another module's lines, or another run's.
var once = map[string]bool{"version": true, "srcversion": true, "intree": true, "vermagic": true, "name": true, "rhelversion": true}

// ParseModinfo reads modinfo output. Each "filename:" line starts a block;
// multi-line values (signatures) and unknown keys are skipped. Lines with
// no "filename:" before them (modinfo piped through grep: "version:",
// "srcversion:", "vermagic:") make a block with no file and, unless a
// "name:" line names it, no name; so does a key printed once per module
// seen again in a block, which is another run's (two outputs pasted
// together), not a new value of the first.
func ParseModinfo(r io.Reader) ([]Info, error) {
	var out []Info
	var cur *Info
	seen := map[string]bool{}
	err := lines.Each(r, func(raw string) {
		if raw == "" || raw[0] == ' ' || raw[0] == '\t' {
			return
		}
		key, val, ok := strings.Cut(raw, ":")
		if !ok || strings.ContainsAny(key, " \t") {
			return
		}
		val = strings.TrimSpace(unbracket(val))
		if key == "filename" {
			if cur != nil && cur.Filename == "" && len(seen) == 1 && seen["name"] {
				// A built-in module's: "name:" first, then
				// "filename:       (builtin)".
				cur.Filename = val
				return
			}
			out = append(out, Info{Filename: val, Name: nameFromFile(val)})
			cur = &out[len(out)-1]
			clear(seen)
			return
		}
		if once[key] && (cur == nil || seen[key]) {
			out = append(out, Info{})
			cur = &out[len(out)-1]
			clear(seen)
		}
		if cur == nil {
			return
		}
		seen[key] = true
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

// KernelRelease is the kernel release this module was built for: the
// first word of vermagic, else the <release> of a /lib/modules/<release>/
// filename. source says which ("vermagic" or "filename"); both are empty
// when neither is printed.
func (i Info) KernelRelease() (release, source string) {
	if f := strings.Fields(i.Vermagic); len(f) > 0 {
		return f[0], "vermagic"
	}
	if r := ReleaseFromPath(i.Filename); r != "" {
		return r, "filename"
	}
	return "", ""
}

// ReleaseFromPath returns <release> from a path holding
// "/lib/modules/<release>" (followed by "/" or the end), or "".
func ReleaseFromPath(p string) string {
	const dir = "/lib/modules/"
	i := strings.Index(p, dir)
	if i < 0 {
		return ""
	}
	rest := p[i+len(dir):]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		rest = rest[:j]
	}
	rest = strings.TrimRight(rest, " .'\"")
	if rest == "" || strings.ContainsAny(rest, " \t") {
		return ""
	}
	return rest
}

// Missing is a module modinfo or modprobe could not find:
// "modinfo: ERROR: Module X not found." or
// "modprobe: FATAL: Module X not found in directory /lib/modules/<release>".
type Missing struct {
	Name    string
	Release string // from the directory, when printed
	Line    int
}

// Modinfo is ParseModinfoAll's result.
type Modinfo struct {
	Modules []Info    // the modules modinfo describes; modinfo says nothing about whether they are loaded
	Missing []Missing // modules reported as not found
}

// KernelRelease is the first kernel release the output names, from a
// module's vermagic or filename, or a "not found in directory" path.
func (m Modinfo) KernelRelease() (release, source string) {
	for _, i := range m.Modules {
		if r, src := i.KernelRelease(); r != "" {
			return r, src
		}
	}
	for _, x := range m.Missing {
		if x.Release != "" {
			return x.Release, "not-found-directory"
		}
	}
	return "", ""
}

// ParseModinfoAll reads modinfo output like ParseModinfo and also keeps
// the not-found errors of modinfo and modprobe.
func ParseModinfoAll(r io.Reader) (Modinfo, error) {
	var buf strings.Builder
	var out Modinfo
	n := 0
	err := lines.Each(r, func(raw string) {
		n++
		buf.WriteString(raw)
		buf.WriteByte('\n')
		line := strings.TrimSpace(raw)
		i := strings.Index(line, "Module ")
		if i < 0 || !strings.Contains(line, " not found") || !(strings.Contains(line, "modinfo:") || strings.Contains(line, "modprobe:")) {
			return
		}
		f := strings.Fields(line[i+len("Module "):])
		if len(f) == 0 {
			return
		}
		out.Missing = append(out.Missing, Missing{Name: strings.TrimSuffix(f[0], "."), Release: ReleaseFromPath(line), Line: n})
	})
	if err != nil {
		return out, err
	}
	out.Modules, err = ParseModinfo(strings.NewReader(buf.String()))
	return out, err
}

// unbracket undoes a document conversion that put modinfo's padded value
// in brackets ("version:[        5.0-0]"): modinfo pads the value after
// the colon with spaces, so a '[' right after the colon followed by
// padding is not modinfo's.
func unbracket(val string) string {
	inner, ok := strings.CutPrefix(val, "[")
	if !ok || !strings.HasSuffix(inner, "]") || !strings.HasPrefix(inner, " ") && !strings.HasPrefix(inner, "\t") {
		return val
	}
	return strings.TrimSuffix(inner, "]")
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
