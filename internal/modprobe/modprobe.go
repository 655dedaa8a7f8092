package modprobe

import (
	"io"
	"path"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Directives a Rule comes from.
const (
	// Blacklist is modprobe.d's "blacklist <module>": modprobe ignores the
	// module's own aliases, so udev's load by device alias does not load
	// it; by name, or as another module's dependency, it still loads.
	Blacklist = "blacklist"
	// Install is modprobe.d's "install <module> <command>" whose command
	// never loads the module (/bin/false, /bin/true, exit 1): modprobe runs
	// the command instead of loading it, by alias, by name or as a
	// dependency.
	Install = "install"
	// CmdlineModprobe is the kernel command line's modprobe.blacklist=a,b:
	// kmod reads it as blacklist lines.
	CmdlineModprobe = "modprobe.blacklist"
	// CmdlineKernel is the kernel command line's module_blacklist=a,b: the
	// kernel refuses to load the modules at all.
	CmdlineKernel = "module_blacklist"
	// CmdlineDracut is dracut's rd.driver.blacklist=a,b: a blacklist in the
	// initramfs.
	CmdlineDracut = "rd.driver.blacklist"
)

// MaxRules bounds the rules one input gives.
const MaxRules = 4096

// Rule is one directive that keeps a module from loading.
type Rule struct {
	Module    string // as kmod compares it: '-' is '_'
	Directive string // Blacklist, Install, CmdlineModprobe, CmdlineKernel or CmdlineDracut
	Command   string // an Install's command, as written
	File      string // the file a grep line named ("/etc/modprobe.d/mlx.conf"); empty otherwise
	Line      int    // 1-based line of the directive (its first line when continued); 0 when not known
	Text      string // the directive as written, continuation lines joined
}

// Always reports whether the rule stops every load of the module (by alias,
// by name, as a dependency), not only udev's load by alias.
func (r Rule) Always() bool { return r.Directive == Install || r.Directive == CmdlineKernel }

// Name is a module name as kmod compares it: '-' and '_' are one.
func Name(s string) string { return strings.ReplaceAll(s, "-", "_") }

// Parse reads modprobe.d configuration: one directive per line, '#' lines
// and blank lines ignored, a '\' at the end of a line continuing it on the
// next. It returns the blacklist lines and the install lines whose command
// never loads the module; other directives (alias, options, softdep,
// remove) are not rules. A line it does not understand is skipped, as
// modprobe skips it.
func Parse(r io.Reader) ([]Rule, error) {
	var out []Rule
	err := eachDirective(r, func(n int, text string) {
		if len(out) < MaxRules {
			out = append(out, directive(n, text)...)
		}
	})
	return out, err
}

// eachDirective joins continued lines and calls fn with each directive and
// the line it starts on.
func eachDirective(r io.Reader, fn func(n int, text string)) error {
	var cur strings.Builder
	start, n := 0, 0
	err := lines.Each(r, func(line string) {
		n++
		line = strings.TrimRight(line, " \t\r")
		if cur.Len() == 0 {
			start = n
		}
		cont := strings.HasSuffix(line, `\`)
		if cont {
			line = strings.TrimSuffix(line, `\`)
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(line)
		if cont {
			return
		}
		fn(start, cur.String())
		cur.Reset()
	})
	if cur.Len() > 0 {
		fn(start, cur.String())
	}
	return err
}

// directive reads one joined line.
func directive(n int, text string) []Rule {
	t := strings.TrimSpace(text)
	if t == "" || t[0] == '#' {
		return nil
	}
	f := strings.Fields(t)
	switch {
	case f[0] == "blacklist" && len(f) >= 2:
		return []Rule{{Module: Name(f[1]), Directive: Blacklist, Line: n, Text: t}}
	case f[0] == "install" && len(f) >= 3:
		rest := strings.TrimSpace(t[len(f[0]):]) // the module, then its command
		cmd := strings.TrimSpace(rest[len(f[1]):])
		if !NeverLoads(cmd) {
			return nil
		}
		return []Rule{{Module: Name(f[1]), Directive: Install, Command: cmd, Line: n, Text: t}}
	}
	return nil
}

// NeverLoads reports whether an install command cannot load its module:
// every part of it (split at ;, && and ||) only fails, succeeds or prints
// (false, true, :, exit N, echo, printf, logger; with any path). A command
// that runs anything else, modprobe or a script, may load it.
func NeverLoads(cmd string) bool {
	cmd = strings.NewReplacer("&&", ";", "||", ";").Replace(cmd)
	parts := 0
	for _, p := range strings.Split(cmd, ";") {
		w := strings.Fields(p)
		if len(w) == 0 {
			continue
		}
		parts++
		switch path.Base(w[0]) {
		case "false", "true", ":", "exit", "echo", "printf", "logger":
		default:
			return false
		}
	}
	return parts > 0
}

// ParseGrep reads the output of grep over modprobe.d files ("grep -r mlx
// /etc/modprobe.d", with -n or -H or without): "<file>:<line>" or
// "<file>:<n>:<line>" for each matching line, or the bare line when grep
// read one file. Continued lines cannot be joined (grep prints only the
// matching one), so each line is read alone.
func ParseGrep(r io.Reader) ([]Rule, error) {
	var out []Rule
	err := lines.Each(r, func(line string) {
		if len(out) >= MaxRules {
			return
		}
		file, n, text := grepLine(strings.TrimRight(line, "\r"))
		for _, rule := range directive(n, text) {
			rule.File = file
			out = append(out, rule)
		}
	})
	return out, err
}

// grepLine splits grep's prefix off a line: a file name ending in .conf,
// or a path under a modprobe.d folder or /etc/modprobe.conf, then ':' and,
// with -n, the line number and ':'. A line without one is the line itself.
func grepLine(line string) (file string, n int, text string) {
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", 0, line
	}
	f := line[:i]
	if strings.ContainsAny(f, " \t") || !(strings.HasSuffix(f, ".conf") || strings.Contains(f, "modprobe.d/")) {
		return "", 0, line
	}
	rest := line[i+1:]
	if j := strings.IndexByte(rest, ':'); j > 0 {
		if v, ok := number(rest[:j]); ok {
			return f, v, rest[j+1:]
		}
	}
	return f, 0, rest
}

func number(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	v := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// ParseCmdline reads a kernel command line (/proc/cmdline, or the kernel
// log's "Command line:" text): the modules of each modprobe.blacklist=,
// module_blacklist= and rd.driver.blacklist= word, comma lists, each word
// allowed more than once. A value in double quotes is unquoted, as the
// kernel's parameter parser does. Line is the line of the input the word
// is on.
func ParseCmdline(r io.Reader) ([]Rule, error) {
	var out []Rule
	n := 0
	err := lines.Each(r, func(line string) {
		n++
		for _, w := range cmdlineWords(line) {
			// next_arg drops a quote that opens the word and one that
			// closes it: "a=b c" and a="b c" are both a=b c.
			k, v, ok := strings.Cut(strings.Trim(w, `"`), "=")
			if !ok {
				continue
			}
			var d string
			switch k {
			case "modprobe.blacklist":
				d = CmdlineModprobe
			case "module_blacklist":
				d = CmdlineKernel
			case "rd.driver.blacklist":
				d = CmdlineDracut
			default:
				continue
			}
			for _, m := range strings.Split(strings.Trim(v, `"`), ",") {
				if m = strings.TrimSpace(m); m != "" && len(out) < MaxRules {
					out = append(out, Rule{Module: Name(m), Directive: d, Line: n, Text: w})
				}
			}
		}
	})
	return out, err
}

// cmdlineWords splits a command line at blanks outside double quotes
// (next_arg in the kernel's lib/cmdline.c).
func cmdlineWords(line string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
			cur.WriteRune(c)
		case (c == ' ' || c == '\t') && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(c)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}
