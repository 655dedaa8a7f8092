package snapshot

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rocekb/rocekb/internal/source"
)

// ManifestName is the capture manifest at the top of a capture tarball.
const ManifestName = "kbcollect_manifest.json"

// ManifestFormat is the capture layout version written by this code.
const ManifestFormat = 1

// Manifest describes a capture: when and by what it was taken, and what
// happened to each command, so a later kbcollect replays the run exactly.
type Manifest struct {
	Format         int               `json:"format"`
	Collector      string            `json:"collector,omitempty"`
	CollectedAt    string            `json:"collected_at,omitempty"` // RFC 3339, UTC
	MaxFile        int64             `json:"max_file"`
	TimeoutMS      int64             `json:"timeout_ms"`
	Commands       []ManifestCommand `json:"commands"`
	FailedFiles    map[string]string `json:"failed_files,omitempty"`    // path → why it could not be read
	TruncatedFiles []string          `json:"truncated_files,omitempty"` // paths cut at MaxFile
	Problems       []Problem         `json:"problems,omitempty"`
}

// ManifestCommand is one command of a captured run.
type ManifestCommand struct {
	Cmdline   string `json:"cmdline"`
	Path      string `json:"path"` // sos_commands/<plugin>/<mangled>
	Status    string `json:"status"`
	Reason    string `json:"reason,omitempty"`
	ExitCode  *int   `json:"exit_code,omitempty"`
	RuntimeMS int64  `json:"runtime_ms"`
	Truncated bool   `json:"truncated,omitempty"`
}

func (m *Manifest) command(cmdline string) (ManifestCommand, bool) {
	for _, c := range m.Commands {
		if c.Cmdline == cmdline {
			return c, true
		}
	}
	return ManifestCommand{}, false
}

// notSaved is the failure a capture replays for a file that was listed in
// a folder on the host but never read, so it was not saved.
const notSaved = "not saved in this capture"

// Record starts noting every file, folder and symlink read through FS, for
// a later WriteCapture. Only a live snapshot can be captured.
func (s *Snapshot) Record() error {
	if s.live == nil {
		return errors.New("only the live host can be captured")
	}
	s.st.mu.Lock()
	s.st.rec = newRecorder()
	s.st.mu.Unlock()
	return nil
}

// captureSpec is read on top of what the collector read, so that a newer
// kbcollect finds more in an old capture. Folders are walked without
// following the symlinks inside them.
var captureSpec = []string{
	"etc/os-release", "etc/hostname", "etc/machine-id", "proc/modules", "proc/version", "proc/cmdline", "proc/interrupts",
	"proc/sys/kernel/hostname", "proc/sys/kernel/tainted", "sys/kernel/config/rdma_cm",
}

// captureWalkLimit bounds the files a capture reads from walked folders.
const captureWalkLimit = 50_000

func (s *Snapshot) readSpec() {
	budget := captureWalkLimit
	walk := func(root string, depth int) {
		_ = fs.WalkDir(s.fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || budget <= 0 {
				return fs.SkipDir
			}
			if d.IsDir() && strings.Count(strings.TrimPrefix(p, root), "/") >= depth {
				return fs.SkipDir
			}
			if d.Type().IsRegular() {
				budget--
				if f, err := s.fsys.Open(p); err == nil {
					_, _ = io.Copy(io.Discard, f)
					f.Close()
				}
			} else if d.Type()&fs.ModeSymlink != 0 {
				_, _ = fs.ReadLink(s.fsys, p)
			}
			return nil
		})
	}
	for _, p := range captureSpec {
		walk(p, 6)
	}
	devs, _ := fs.ReadDir(s.fsys, "sys/class/infiniband")
	for _, d := range devs {
		walk("sys/class/infiniband/"+d.Name(), 5)
	}
	nets, _ := fs.ReadDir(s.fsys, "sys/class/net")
	for _, n := range nets {
		base := "sys/class/net/" + n.Name()
		for _, f := range []string{"address", "mtu", "operstate", "type", "device/vendor", "device/device", "device/subsystem_vendor", "device/subsystem_device", "device/numa_node", "device/current_link_speed", "device/current_link_width", "device/driver/module"} {
			_, _ = fs.Lstat(s.fsys, base+"/"+f)
			if f, err := s.fsys.Open(base + "/" + f); err == nil {
				_, _ = io.Copy(io.Discard, f)
				f.Close()
			}
		}
		walk(base+"/device/msi_irqs", 1)
	}
	for _, m := range source.RDMAModules {
		for _, f := range []string{"version", "srcversion", "taint", "initstate"} {
			if f, err := s.fsys.Open("sys/module/" + m + "/" + f); err == nil {
				_, _ = io.Copy(io.Discard, f)
				f.Close()
			}
		}
	}
}

type member struct {
	hdr  tar.Header
	data []byte
}

// WriteCapture writes a gzip-compressed tarball in the sos layout: each file
// the run read under its own path (symlinks as symlinks), each command's
// output under sos_commands/<plugin>/<mangled>, and a manifest. Members are
// sorted and carry a fixed time, so the same host state gives the same bytes.
func (s *Snapshot) WriteCapture(w io.Writer, collector string) error {
	if s.live == nil || s.st.recorder() == nil {
		return errors.New("capture needs a live snapshot that was recording (call Record first)")
	}
	s.Prefetch()
	s.readSpec()
	executed := s.Executed()

	s.st.mu.Lock()
	rec := s.st.rec
	s.st.rec = nil
	s.st.mu.Unlock()

	members := map[string]*member{}
	addDirs := func(p string) {
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if _, ok := members[d]; ok {
				break
			}
			members[d] = &member{hdr: tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755}}
		}
	}
	m := Manifest{Format: ManifestFormat, Collector: collector, MaxFile: s.max(), FailedFiles: map[string]string{}}
	if t, ok := s.CollectedAt(); ok {
		m.CollectedAt = t.UTC().Format(time.RFC3339)
	}
	m.TimeoutMS = s.timeout().Milliseconds()
	addFile := func(p string, data []byte) {
		addDirs(p)
		members[p] = &member{hdr: tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: 0o644, Size: int64(len(data))}, data: data}
	}
	readFile := func(p string) {
		if _, ok := members[p]; ok {
			return
		}
		f, err := s.fsys.Open(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return
			}
			addFile(p, nil)
			m.FailedFiles[p] = failKind(err)
			return
		}
		data, err := io.ReadAll(f)
		f.Close()
		addFile(p, data)
		if err != nil {
			m.FailedFiles[p] = failKind(err)
		}
		if cf, ok := f.(*capFile); ok && cf.truncated {
			m.TruncatedFiles = append(m.TruncatedFiles, p)
		}
	}
	for p, target := range rec.links {
		addDirs(p)
		members[p] = &member{hdr: tar.Header{Typeflag: tar.TypeSymlink, Name: p, Linkname: target, Mode: 0o777}}
	}
	for p := range rec.files {
		readFile(p)
	}
	for p, why := range rec.failed {
		if _, ok := members[p]; !ok {
			addFile(p, nil)
		}
		m.FailedFiles[p] = why
	}
	for p, entries := range rec.dirs {
		if p == "." {
			continue
		}
		addDirs(p + "/x")
		for _, e := range entries {
			cp := p + "/" + e.Name()
			if _, ok := members[cp]; ok {
				continue
			}
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				if target, err := fs.ReadLink(s.fsys, cp); err == nil {
					members[cp] = &member{hdr: tar.Header{Typeflag: tar.TypeSymlink, Name: cp, Linkname: target, Mode: 0o777}}
				}
			case e.IsDir():
				addDirs(cp + "/x")
			case e.Type().IsRegular():
				addFile(cp, nil)
				m.FailedFiles[cp] = notSaved
			}
		}
	}
	for cmdline, info := range executed {
		r := info.Result
		c := ManifestCommand{Cmdline: cmdline, Path: r.Path, Status: r.Status, Reason: r.Reason, ExitCode: info.ExitCode, RuntimeMS: info.RuntimeMS, Truncated: r.Truncated}
		m.Commands = append(m.Commands, c)
		if r.Status != StatusAbsent {
			addFile(r.Path, r.Data)
		}
	}
	slices.SortFunc(m.Commands, func(a, b ManifestCommand) int { return strings.Compare(a.Cmdline, b.Cmdline) })
	slices.Sort(m.TruncatedFiles)
	m.Problems = s.Problems()
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	addFile(ManifestName, append(mj, '\n'))

	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	slices.Sort(names)
	// The manifest goes first so a reader can find it without reading the rest.
	names = slices.DeleteFunc(names, func(n string) bool { return n == ManifestName })
	names = append([]string{ManifestName}, names...)

	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	for _, n := range names {
		mb := members[n]
		mb.hdr.ModTime = fixedTime
		mb.hdr.Format = tar.FormatPAX
		if err := tw.WriteHeader(&mb.hdr); err != nil {
			return fmt.Errorf("capture %s: %w", n, err)
		}
		if _, err := io.Copy(tw, bytes.NewReader(mb.data)); err != nil {
			return fmt.Errorf("capture %s: %w", n, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

func (s *Snapshot) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}
