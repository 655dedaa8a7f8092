package snapshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// DefaultMaxFile caps every file and command output read from a snapshot.
const DefaultMaxFile = 16 << 20

// Result is the outcome of reading one file or command output.
type Result struct {
	Data      []byte
	Path      string // where in the snapshot it was found (or would have been)
	Status    string // record.StatusOK, StatusAbsent or StatusFailed
	Reason    string // why absent or failed, or a note such as truncation
	Truncated bool   // the cap was hit; Data holds the first MaxFile bytes
}

// OK reports whether the read succeeded.
func (r Result) OK() bool { return r.Status == record.StatusOK }

// Snapshot is one host's files, rooted like / (sys/, proc/, etc/ …), plus
// command outputs.
type Snapshot struct {
	Kind    string // record.KindLive, KindRoot, KindSosreport, KindCapture
	Name    string // what the user named: a folder, a tarball, or "/" for live
	MaxFile int64  // per-file cap; DefaultMaxFile when zero

	fsys fs.FS
}

// FS returns the snapshot's files as an fs.FS rooted like /.
func (s *Snapshot) FS() fs.FS { return s.fsys }

func (s *Snapshot) max() int64 {
	if s.MaxFile > 0 {
		return s.MaxFile
	}
	return DefaultMaxFile
}

// File reads one file, e.g. "etc/os-release", up to the cap.
func (s *Snapshot) File(name string) Result {
	r := Result{Path: name}
	f, err := s.fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.Status, r.Reason = record.StatusAbsent, "not in snapshot"
			return r
		}
		r.Status, r.Reason = record.StatusFailed, err.Error()
		return r
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, s.max()+1))
	if err != nil {
		r.Status, r.Reason = record.StatusFailed, err.Error()
		return r
	}
	if int64(len(data)) > s.max() {
		data = data[:s.max()]
		r.Truncated = true
		r.Reason = fmt.Sprintf("truncated at %d bytes", s.max())
	}
	r.Data, r.Status = data, record.StatusOK
	return r
}

// Command returns the output of a command line such as "ibv_devinfo -v".
// In a copied tree it is looked up in the sos layout:
// sos_commands/<plugin>/<command with spaces as _ and / as .>.
func (s *Snapshot) Command(cmdline string) Result {
	name := SosName(cmdline)
	dirs, _ := fs.ReadDir(s.fsys, "sos_commands")
	for _, d := range dirs {
		p := "sos_commands/" + d.Name() + "/" + name
		if _, err := fs.Stat(s.fsys, p); err == nil {
			return s.File(p)
		}
	}
	return Result{Path: "sos_commands/*/" + name, Status: record.StatusAbsent, Reason: "not captured"}
}

// SosName mangles a command line the way sos names its output files.
func SosName(cmdline string) string {
	return strings.NewReplacer(" ", "_", "/", ".").Replace(strings.TrimSpace(cmdline))
}

// Root opens a copied tree.
func Root(dir string) (*Snapshot, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	return &Snapshot{fsys: os.DirFS(dir), Kind: record.KindRoot, Name: dir}, nil
}

// Live opens the running host.
func Live() *Snapshot {
	return &Snapshot{fsys: os.DirFS("/"), Kind: record.KindLive, Name: "/"}
}

// FromFS wraps an fs.FS (a test fixture, an opened archive) as a snapshot.
func FromFS(fsys fs.FS, kind, name string) *Snapshot {
	return &Snapshot{fsys: fsys, Kind: kind, Name: name}
}
