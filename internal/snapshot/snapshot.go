package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Kinds of snapshot: where it came from. collect copies them into the
// host record's source_kind.
const (
	KindLive      = "live"      // the running host
	KindSosreport = "sosreport" // an sosreport folder or tarball
	KindCapture   = "capture"   // a kbcollect capture tarball
	KindRoot      = "root"      // a copied tree laid out like /
	// KindSupportconfig is a SUSE supportconfig folder or tarball, its
	// sections laid out like an sosreport (openSupportconfig).
	KindSupportconfig = "supportconfig"
	// KindSysinfoSnapshot is the output folder or tarball of NVIDIA's
	// sysinfo-snapshot, its outputs laid out like an sosreport
	// (openSysinfoSnapshot).
	KindSysinfoSnapshot = "sysinfo-snapshot"
)

// Statuses of a Result. collect maps them to the record's source statuses.
const (
	StatusOK     = "ok"     // read
	StatusAbsent = "absent" // not on the host or not in the snapshot: data, not failure
	StatusFailed = "failed" // present but unreadable; Reason says why
)

// Problem is something wrong with the snapshot itself: a member that tried
// to escape the archive, a symlink loop, a file over the cap. A capture's
// manifest saves them, so the JSON keys are a stored format.
type Problem struct {
	Source string `json:"source"` // the path or "cmd/<command line>" it concerns
	Msg    string `json:"msg"`
}

// DefaultMaxFile caps every file and command output read from a snapshot.
const DefaultMaxFile = 16 << 20

// Result is the outcome of reading one file or command output.
type Result struct {
	Data      []byte
	Path      string // where in the snapshot it was found (or would have been)
	Status    string // StatusOK, StatusAbsent or StatusFailed
	Reason    string // why absent or failed, or a note such as truncation
	Truncated bool   // the cap was hit; Data holds the first MaxFile bytes
}

// OK reports whether the read succeeded.
func (r Result) OK() bool { return r.Status == StatusOK }

// Snapshot is one host's files, rooted like / (sys/, proc/, etc/ …), plus
// command outputs. It is safe for concurrent use.
type Snapshot struct {
	Kind    string        // KindLive, KindRoot, KindSosreport, KindCapture
	Name    string        // what the user named: a folder, a tarball, or "/" for live
	MaxFile int64         // per-file cap; DefaultMaxFile when zero
	Timeout time.Duration // live host: per-command timeout; DefaultTimeout when zero
	Jobs    int           // live host: commands run at once; DefaultJobs when zero
	NoTools bool          // live host: run no command; each is absent
	// Filters is, for a paste, the pipeline each file's output went
	// through after its command ("grep mlx5"), by path; a file read whole
	// has none.
	Filters map[string]string

	fsys        fs.FS
	st          *state
	live        *runner   // the running host's commands; nil for copied snapshots
	manifest    *Manifest // a capture's manifest; nil otherwise
	collectedAt time.Time

	sosOnce  sync.Once
	sosIndex map[string]string // command file name → its first path under sos_commands
}

func newSnapshot(kind, name string) *Snapshot {
	s := &Snapshot{Kind: kind, Name: name}
	s.st = newState(s.max)
	return s
}

// FS returns the snapshot's files as an fs.FS rooted like /. It also
// implements fs.ReadDirFS, fs.StatFS, fs.ReadFileFS and fs.ReadLinkFS;
// symlinks resolve inside the snapshot and reads stop at the per-file cap.
func (s *Snapshot) FS() fs.FS { return s.fsys }

func (s *Snapshot) max() int64 {
	if s.MaxFile > 0 {
		return s.MaxFile
	}
	return DefaultMaxFile
}

// Problems lists what was wrong with the snapshot itself so far: members
// that tried to escape, symlink loops, files over the cap, damaged
// archives. Sorted, without duplicates.
func (s *Snapshot) Problems() []Problem {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	out := make([]Problem, 0, len(s.st.problems))
	for k := range s.st.problems {
		out = append(out, Problem{Source: k.source, Msg: k.msg})
	}
	slices.SortFunc(out, func(a, b Problem) int {
		if c := strings.Compare(a.Source, b.Source); c != 0 {
			return c
		}
		return strings.Compare(a.Msg, b.Msg)
	})
	return out
}

// CollectedAt is when the snapshot was taken, when known: the start of a
// live run, a capture's manifest, or an sosreport's date output.
func (s *Snapshot) CollectedAt() (time.Time, bool) {
	if !s.collectedAt.IsZero() {
		return s.collectedAt, true
	}
	if s.Kind == KindSosreport || s.Kind == KindRoot || s.Kind == KindSupportconfig || s.Kind == KindSysinfoSnapshot {
		return sosDate(s)
	}
	return time.Time{}, false
}

// File reads one file, e.g. "etc/os-release", up to the cap.
func (s *Snapshot) File(name string) Result {
	r := Result{Path: name}
	f, err := s.fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.Status, r.Reason = StatusAbsent, "not in snapshot"
			return r
		}
		r.Status, r.Reason = StatusFailed, err.Error()
		return r
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		r.Status, r.Reason = StatusFailed, "is a folder, not a file"
		return r
	}
	data, err := io.ReadAll(f)
	if err != nil {
		r.Status, r.Reason = StatusFailed, err.Error()
		return r
	}
	r.Data, r.Status = data, StatusOK
	truncated := false
	if cf, ok := f.(*capFile); ok {
		truncated = cf.truncated
		if mf, ok := cf.File.(*memFile); ok {
			truncated = truncated || mf.info.n.truncated
		}
	}
	if truncated {
		r.Truncated = true
		r.Reason = fmt.Sprintf("truncated at %d bytes", s.max())
	}
	return r
}

// Command returns the output of a command line such as "ibv_devinfo -v".
// On the live host it runs the command (only those on the allow-list, each
// once, with a timeout and an output cap). In a capture it replays what
// the capture recorded. In a copied tree or sosreport it is looked up in
// the sos layout: sos_commands/<plugin>/<source.SosName(cmdline)>, then sos's
// top-level links and known equivalent commands. Result.Path is always the
// sos-layout path (source.SosPath for a live run, where a capture stores it), so
// a live record and the record of its capture name the same paths.
func (s *Snapshot) Command(cmdline string) Result {
	cmdline = strings.Join(strings.Fields(cmdline), " ")
	if s.live != nil {
		return s.live.get(cmdline)
	}
	if s.manifest != nil {
		if e, ok := s.manifest.command(cmdline); ok {
			return s.replay(e)
		}
	}
	return s.sosCommand(cmdline)
}

// Root opens a copied tree: a folder laid out like /, an extracted
// sosreport (its sosreport-<host>-<date>/ wrapper may be included) or an
// extracted capture. Symlinks are resolved inside the folder.
func Root(dir string) (*Snapshot, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	if inner, ok := wrapperFolder(dir); ok {
		dir = inner
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	s := newSnapshot(KindRoot, dir)
	s.fsys = &treeFS{b: newDiskTree(root), st: s.st}
	if err := s.detectKind(); err != nil {
		return nil, err
	}
	return s, nil
}

// wrapperFolder finds the single sosreport-<host>-<date>/ style folder
// that wraps a tree.
func wrapperFolder(dir string) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || !entries[0].IsDir() || rootNames[entries[0].Name()] {
		return "", false
	}
	inner := dir + string(os.PathSeparator) + entries[0].Name()
	for _, marker := range []string{"sos_commands", "sos_reports", "version.txt", ManifestName, "basic-environment.txt", sysinfoCommands, sysinfoErrors} {
		if _, err := os.Lstat(inner + string(os.PathSeparator) + marker); err == nil {
			return inner, true
		}
	}
	return "", false
}

// Open opens what the user named: a folder (see Root) or a tarball — an
// sosreport or a kbcollect capture, .tar, .tar.gz, .tar.xz or .tar.bz2 —
// read into memory without extracting anything to disk.
func Open(name string) (*Snapshot, error) { return OpenWith(name, 0) }

// OpenWith is Open with a per-file cap (DefaultMaxFile when zero), which a
// tarball needs before it is read.
func OpenWith(name string, maxFile int64) (*Snapshot, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		s, err := Root(name)
		if s != nil {
			s.MaxFile = maxFile
		}
		return s, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", name, ErrNotArchive)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return OpenArchive(f, name, maxFile)
}

// OpenArchive reads a tarball stream into memory. maxFile is the per-member
// cap (DefaultMaxFile when zero).
func OpenArchive(r io.Reader, name string, maxFile int64) (*Snapshot, error) {
	return openArchive(r, name, maxFile, productionLimits)
}

func openArchive(r io.Reader, name string, maxFile int64, lim archiveLimits) (*Snapshot, error) {
	s := newSnapshot(KindRoot, name)
	s.MaxFile = maxFile
	tree, err := readArchive(r, s.st, lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s.fsys = &treeFS{b: tree, st: s.st}
	if err := s.detectKind(); err != nil {
		return nil, err
	}
	return s, nil
}

// detectKind tells a capture (it has a kbcollect manifest) and an sosreport
// (it has sos_commands/ or sos_reports/) from a plain copied tree.
func (s *Snapshot) detectKind() error {
	if _, err := fs.Stat(s.fsys, ManifestName); err == nil {
		res := s.File(ManifestName)
		if !res.OK() {
			return fmt.Errorf("%s: %s", ManifestName, res.Reason)
		}
		var m Manifest
		if err := json.Unmarshal(res.Data, &m); err != nil {
			return fmt.Errorf("%s: %w", ManifestName, err)
		}
		if m.Format > ManifestFormat {
			return fmt.Errorf("%s: capture format %d is newer than this kbcollect understands (%d); upgrade kbcollect", ManifestName, m.Format, ManifestFormat)
		}
		s.manifest = &m
		s.Kind = KindCapture
		if t, ok := s.fsys.(*treeFS); ok {
			t.failed, t.truncated = map[string]error{}, map[string]bool{}
			for p, why := range m.FailedFiles {
				t.failed[p] = replayError(why)
			}
			for _, p := range m.TruncatedFiles {
				t.truncated[p] = true
			}
		}
		for _, p := range m.Problems {
			s.st.problem(p.Source, "%s", p.Msg)
		}
		if t, err := time.Parse(time.RFC3339, m.CollectedAt); err == nil {
			s.collectedAt = t.UTC()
		}
		return nil
	}
	for _, marker := range []string{"sos_commands", "sos_reports"} {
		if fi, err := fs.Stat(s.fsys, marker); err == nil && fi.IsDir() {
			s.Kind = KindSosreport
			return nil
		}
	}
	if isSupportconfig(s.fsys) {
		s.openSupportconfig()
		return nil
	}
	if isSysinfoSnapshot(s.fsys) {
		s.openSysinfoSnapshot()
		return nil
	}
	for name := range rootNames {
		if fi, err := fs.Stat(s.fsys, name); err == nil && fi.IsDir() {
			return nil
		}
	}
	return fmt.Errorf("%s: %w", s.Name, ErrNotSnapshot)
}

// ErrNotSnapshot means a folder or tarball holds none of the layouts
// kbcollect reads.
var ErrNotSnapshot = errors.New("not a snapshot: expected an sosreport (sos_commands/), a kbcollect capture (" +
	ManifestName + "), a supportconfig (basic-environment.txt), a sysinfo-snapshot (commands_txt_output/ or err_messages/) or a tree laid out like / (sys/, proc/, etc/, var/ …)")

// Live opens the running host, read-only. Commands run on first use; call
// Prefetch to start the usual ones in parallel at once.
func Live() *Snapshot {
	s, err := LiveAt("/")
	if err != nil {
		s = newSnapshot(KindLive, "/")
		s.fsys = &treeFS{b: fsTree{fsys: os.DirFS("/")}, st: s.st, deny: liveDeny}
		s.live = newRunner(s)
		s.collectedAt = time.Now().UTC().Truncate(time.Second)
	}
	return s
}

// LiveAt is Live with the host's files read from root instead of /, as
// when the host's / is mounted into a container. Commands still run here.
func LiveAt(root string) (*Snapshot, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	s := newSnapshot(KindLive, root)
	s.fsys = &treeFS{b: newDiskTree(r), st: s.st, deny: liveDeny, readTimeout: s.timeout}
	s.live = newRunner(s)
	s.collectedAt = time.Now().UTC().Truncate(time.Second)
	return s, nil
}

// liveDeny lists files on a running host that block or stream forever when
// read; the collector never needs them.
var liveDeny = []string{"proc/kmsg", "proc/kcore", "sys/kernel/debug", "sys/kernel/tracing", "dev"}

// FromFS wraps an fs.FS (a test fixture, an opened archive) as a snapshot.
// Symlinks in it (fstest.MapFS supports them) resolve inside it.
func FromFS(fsys fs.FS, kind, name string) *Snapshot {
	s := newSnapshot(kind, name)
	s.fsys = &treeFS{b: fsTree{fsys: fsys}, st: s.st}
	switch kind {
	case KindSupportconfig:
		s.openSupportconfig()
	case KindSysinfoSnapshot:
		s.openSysinfoSnapshot()
	}
	return s
}
