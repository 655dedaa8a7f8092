package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rocekb/rocekb/internal/source"
)

// Defaults for running commands on a live host.
const (
	DefaultTimeout = 5 * time.Second
	DefaultJobs    = 4
)

var (
	reNetdev = regexp.MustCompile(`^[A-Za-z0-9_.:@-]{1,15}$`)
	reModule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	rePort   = regexp.MustCompile(`^[0-9]{1,3}$`)
)

// Allowed reports whether kbcollect may run cmdline on a live host: it is
// one of the command lines of source.Tools, read-only queries of the RDMA
// stack. A word in braces there matches only a name that exists on the
// host or looks like a kernel name; arguments are passed without a shell.
func (s *Snapshot) Allowed(cmdline string) bool {
	words := strings.Fields(cmdline)
	for _, t := range source.Tools {
		for _, c := range t.Commands {
			if c.Match(words, s.nameOK) {
				return true
			}
		}
	}
	return false
}

// nameOK judges a word that stands in for a placeholder of an allowed command.
func (s *Snapshot) nameOK(placeholder, w string) bool {
	switch placeholder {
	case "{netdev}":
		return reNetdev.MatchString(w) && w != "." && w != ".." && s.exists("sys/class/net/"+w)
	case "{ibdev}":
		return reNetdev.MatchString(w) && w != "." && w != ".." && s.exists("sys/class/infiniband/"+w)
	case "{module}":
		return reModule.MatchString(w)
	case "{port}":
		return rePort.MatchString(w)
	}
	return false
}

func (s *Snapshot) exists(name string) bool {
	_, err := fs.Lstat(s.fsys, name)
	return err == nil
}

// ExecInfo is what a live run learnt about one command, kept in a capture's manifest.
type ExecInfo struct {
	ExitCode  *int   // nil when the command did not run or was killed
	RuntimeMS int64  // wall time
	Result    Result // output and status
}

type call struct {
	done chan struct{}
	info ExecInfo
}

// runner runs allowed commands on the live host, each at most once, at most
// Jobs at a time.
type runner struct {
	s        *Snapshot
	once     sync.Once
	prefetch sync.Once
	sem      chan struct{}
	mu       sync.Mutex
	calls    map[string]*call
	lookPath func(string) (string, error)
}

func newRunner(s *Snapshot) *runner {
	return &runner{s: s, calls: map[string]*call{}, lookPath: lookPath}
}

func (r *runner) start() {
	r.once.Do(func() {
		jobs := r.s.Jobs
		if jobs <= 0 {
			jobs = DefaultJobs
		}
		r.sem = make(chan struct{}, jobs)
	})
}

// Prefetch starts the usual commands of a live run in the background: those
// of source.Tools marked Prefetch, a {netdev} one (ethtool -i) for each
// netdev with a device, and a {module} one (modinfo) for each loaded RDMA
// module. A copied snapshot ignores it.
func (s *Snapshot) Prefetch() {
	if s.live == nil {
		return
	}
	s.live.prefetch.Do(func() {
		for _, c := range s.prefetchList() {
			s.live.launch(c)
		}
	})
}

func (s *Snapshot) prefetchList() []string {
	var fixed, perNetdev, perModule []string
	for _, t := range source.Tools {
		for _, c := range t.Commands {
			switch {
			case !c.Prefetch:
			case strings.Contains(c.Line, "{netdev}"):
				perNetdev = append(perNetdev, c.Line)
			case strings.Contains(c.Line, "{module}"):
				perModule = append(perModule, c.Line)
			default:
				fixed = append(fixed, c.Line)
			}
		}
	}
	out := fixed
	nets, _ := fs.ReadDir(s.fsys, "sys/class/net")
	for _, n := range nets {
		if s.exists("sys/class/net/" + n.Name() + "/device") {
			for _, l := range perNetdev {
				out = append(out, strings.ReplaceAll(l, "{netdev}", n.Name()))
			}
		}
	}
	if mods := s.File("proc/modules"); mods.OK() {
		loaded := map[string]bool{}
		for _, line := range strings.Split(string(mods.Data), "\n") {
			if f := strings.Fields(line); len(f) > 0 {
				loaded[f[0]] = true
			}
		}
		for _, m := range source.RDMAModules {
			if loaded[m] {
				for _, l := range perModule {
					out = append(out, strings.ReplaceAll(l, "{module}", m))
				}
			}
		}
	}
	return out
}

func (r *runner) launch(cmdline string) *call {
	r.start()
	r.mu.Lock()
	c, ok := r.calls[cmdline]
	if !ok {
		c = &call{done: make(chan struct{})}
		r.calls[cmdline] = c
		go func() {
			r.sem <- struct{}{}
			c.info = r.exec(cmdline)
			<-r.sem
			close(c.done)
		}()
	}
	r.mu.Unlock()
	return c
}

func (r *runner) get(cmdline string) Result {
	r.s.Prefetch()
	c := r.launch(cmdline)
	<-c.done
	return c.info.Result
}

// Executed lists every command a live run ran or tried, with what happened.
func (s *Snapshot) Executed() map[string]ExecInfo {
	out := map[string]ExecInfo{}
	if s.live == nil {
		return out
	}
	s.live.mu.Lock()
	calls := make(map[string]*call, len(s.live.calls))
	for k, c := range s.live.calls {
		calls[k] = c
	}
	s.live.mu.Unlock()
	for k, c := range calls {
		<-c.done
		out[k] = c.info
	}
	return out
}

// CommandInfo is one command a run executed (live) or replayed (capture).
type CommandInfo struct {
	Cmdline string
	Result  Result
}

// Commands lists, sorted, the commands a live run executed or a capture
// recorded, so each can be listed as a source. Copied trees list none.
func (s *Snapshot) Commands() []CommandInfo {
	var out []CommandInfo
	switch {
	case s.live != nil:
		for c, info := range s.Executed() {
			r := info.Result
			r.Data = nil
			out = append(out, CommandInfo{Cmdline: c, Result: r})
		}
	case s.manifest != nil:
		for _, c := range s.manifest.Commands {
			out = append(out, CommandInfo{Cmdline: c.Cmdline, Result: Result{Path: c.Path, Status: c.Status, Reason: c.Reason, Truncated: c.Truncated}})
		}
	}
	slices.SortFunc(out, func(a, b CommandInfo) int { return strings.Compare(a.Cmdline, b.Cmdline) })
	return out
}

// capBuffer keeps the first max bytes written and counts the rest, so a
// chatty command can neither fill memory nor block on a full pipe.
type capBuffer struct {
	buf       bytes.Buffer
	max       int64
	truncated bool
}

func (b *capBuffer) Write(p []byte) (int, error) {
	if left := b.max - int64(b.buf.Len()); left < int64(len(p)) {
		b.truncated = true
		if left > 0 {
			b.buf.Write(p[:left])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (r *runner) exec(cmdline string) ExecInfo {
	res := Result{Path: source.Cmd(cmdline).Path()}
	if !r.s.Allowed(cmdline) {
		// Kept as a call too, so a capture replays the refusal.
		res.Status, res.Reason = StatusFailed, "not on kbcollect's list of allowed commands; not run"
		return ExecInfo{Result: res}
	}
	argv := strings.Fields(cmdline)
	if r.s.NoTools {
		res.Status, res.Reason = StatusAbsent, "not run (--no-tools)"
		return ExecInfo{Result: res}
	}
	exe, err := r.lookPath(argv[0])
	if err != nil {
		res.Status, res.Reason = StatusAbsent, argv[0]+" is not installed (not found in PATH)"
		return ExecInfo{Result: res}
	}
	timeout := r.s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, argv[1:]...)
	cmd.Env = []string{"PATH=" + searchPath(), "LC_ALL=C", "LANG=C"}
	cmd.Dir = "/"
	stdout := &capBuffer{max: r.s.max()}
	stderr := &capBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Its own process group, so that a timeout kills the tool's children too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	began := time.Now()
	err = cmd.Run()
	info := ExecInfo{RuntimeMS: time.Since(began).Milliseconds()}
	res.Data = stdout.buf.Bytes()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.Status, res.Reason = StatusFailed, fmt.Sprintf("timed out after %s; killed", timeout)
	case errors.As(err, &ee) && ee.Exited():
		code := ee.ExitCode()
		info.ExitCode = &code
		res.Status, res.Reason = StatusFailed, fmt.Sprintf("exit status %d", code)
		if msg := firstLine(stderr.buf.String()); msg != "" {
			res.Reason += ": " + msg
		}
	case err != nil:
		res.Status, res.Reason = StatusFailed, strings.ReplaceAll(err.Error(), exe, argv[0])
	default:
		code := 0
		info.ExitCode = &code
		res.Status = StatusOK
	}
	if stdout.truncated {
		res.Truncated = true
		note := fmt.Sprintf("output truncated at %d bytes", r.s.max())
		if res.Reason == "" {
			res.Reason = note
		} else {
			res.Reason += "; " + note
		}
		r.s.st.problem("cmd/"+cmdline, "output larger than the per-file cap of %d bytes; kept the first %d bytes", r.s.max(), r.s.max())
	}
	info.Result = res
	return info
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 200 {
				l = l[:200] + "…"
			}
			return strings.ToValidUTF8(l, "?")
		}
	}
	return ""
}

// searchPath is PATH plus the sbin folders, where lspci, ethtool and
// devlink live but which a non-root PATH often lacks.
func searchPath() string {
	dirs := filepath.SplitList(os.Getenv("PATH"))
	for _, d := range []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"} {
		found := false
		for _, e := range dirs {
			if e == d {
				found = true
				break
			}
		}
		if !found {
			dirs = append(dirs, d)
		}
	}
	return strings.Join(dirs, string(filepath.ListSeparator))
}

// lookPath finds an executable like exec.LookPath, over searchPath.
func lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		return "", errors.New("commands are run by name only")
	}
	for _, dir := range filepath.SplitList(searchPath()) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}
