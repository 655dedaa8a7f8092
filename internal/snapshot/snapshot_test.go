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
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"
	"time"

	"github.com/ulikunitz/xz"

	"github.com/rocekb/rocekb/internal/snapshot/tartest"
)

// sosMembers is a small sosreport with the hostile members the reader must survive.
func sosMembers(top string) []tartest.Member {
	return []tartest.Member{
		{Name: top + "/"},
		{Name: top + "/version.txt", Body: "sosreport: 4.7.0\n"},
		{Name: top + "/sos_commands/infiniband/ibv_devinfo_-v", Body: "hca_id:\tmlx5_0\n"},
		{Name: top + "/sos_commands/pci/lspci_-nnvv", Body: "3b:00.0 Ethernet controller [0200]\n"},
		{Name: top + "/sos_commands/rdma/rdma_link_show_-d", Body: "link mlx5_0/1 state ACTIVE\n"},
		{Name: top + "/sos_commands/date/date_--utc", Body: "Wed May  1 10:20:30 UTC 2024\n"},
		{Name: top + "/lspci", Link: "sos_commands/pci/lspci_-nnvv"},
		{Name: top + "/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/net/eth0/address", Body: "08:c0:eb:12:34:56\n"},
		{Name: top + "/sys/class/net/eth0", Link: "../../devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/net/eth0"},
		{Name: top + "/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/net/eth0/device", Link: "../../../0000:3b:00.0"},
		{Name: top + "/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/vendor", Body: "0x15b3\n"},
		{Name: top + "/etc/hostname", Body: "node17.example.com\n"},
		{Name: top + "/etc/abs", Link: "/etc/hostname"},
		{Name: "../../etc/passwd", Body: "root:x:0:0\n"},
		{Name: "/etc/shadow", Body: "root:!:1\n"},
		{Name: top + "/sys/escape", Link: "../../../../etc/passwd"},
		{Name: top + "/sys/escape-abs", Link: "/../etc/passwd"},
		{Name: top + "/sys/loop-a", Link: "loop-b"},
		{Name: top + "/sys/loop-b", Link: "loop-a"},
		{Name: top + "/sys/self", Link: "self/x"},
	}
}

func openMembers(t *testing.T, compression string, members []tartest.Member, maxFile int64) *Snapshot {
	t.Helper()
	var buf bytes.Buffer
	if err := tartest.Write(&buf, compression, members); err != nil {
		t.Fatal(err)
	}
	s, err := OpenArchive(&buf, "test.tar", maxFile)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func hasProblem(s *Snapshot, source, msgPart string) bool {
	for _, p := range s.Problems() {
		if p.Source == source && strings.Contains(p.Msg, msgPart) {
			return true
		}
	}
	return false
}

func TestArchiveSosreport(t *testing.T) {
	t.Parallel()
	for _, comp := range []string{"", "gz", "xz"} {
		t.Run("compression="+comp, func(t *testing.T) {
			t.Parallel()
			s := openMembers(t, comp, sosMembers("sosreport-node17-2024-05-01-abcdef"), 0)
			if s.Kind != KindSosreport {
				t.Errorf("Kind = %q, want sosreport", s.Kind)
			}
			checkSosSnapshot(t, s, true)
		})
	}
}

func checkSosSnapshot(t *testing.T, s *Snapshot, archive bool) {
	t.Helper()
	if r := s.File("sys/class/net/eth0/address"); !r.OK() || string(r.Data) != "08:c0:eb:12:34:56\n" {
		t.Errorf("address through the class symlink: %+v", r)
	}
	if r := s.File("sys/class/net/eth0/device/vendor"); !r.OK() || string(r.Data) != "0x15b3\n" {
		t.Errorf("vendor through two symlinks: %+v", r)
	}
	if target, err := fs.ReadLink(s.FS(), "sys/class/net/eth0/device"); err != nil || target != "../../../0000:3b:00.0" {
		t.Errorf("ReadLink = %q, %v", target, err)
	}
	if r := s.File("etc/abs"); !r.OK() || !strings.HasPrefix(string(r.Data), "node17") {
		t.Errorf("absolute symlink resolves inside the snapshot: %+v", r)
	}
	for _, tc := range []struct{ cmd, path, data string }{
		{"ibv_devinfo -v", "sos_commands/infiniband/ibv_devinfo_-v", "hca_id:\tmlx5_0\n"},
		{"lspci -nnvv", "sos_commands/pci/lspci_-nnvv", "3b:00.0 Ethernet controller [0200]\n"},
		{"rdma link show -d", "sos_commands/rdma/rdma_link_show_-d", "link mlx5_0/1 state ACTIVE\n"},
	} {
		r := s.Command(tc.cmd)
		if !r.OK() || r.Path != tc.path || string(r.Data) != tc.data {
			t.Errorf("Command(%q) = %+v, want %s at %s", tc.cmd, r, tc.data, tc.path)
		}
	}
	if r := s.Command("ibstat"); r.Status != StatusAbsent || r.Path != "sos_commands/infiniband/ibstat" {
		t.Errorf("Command(ibstat) = %+v, want absent", r)
	}
	// Hostile members and links: problems, never content from outside.
	for _, name := range []string{"etc/passwd", "etc/shadow"} {
		if r := s.File(name); r.Status != StatusAbsent {
			t.Errorf("%s = %+v, want absent (the member escaped)", name, r)
		}
	}
	for _, tc := range []struct {
		name string
		err  error
	}{{"sys/escape", ErrEscape}, {"sys/escape-abs", ErrEscape}, {"sys/loop-a", ErrLoop}, {"sys/self", ErrLoop}} {
		_, err := fs.ReadFile(s.FS(), tc.name)
		if !errors.Is(err, tc.err) {
			t.Errorf("read %s: %v, want %v", tc.name, err, tc.err)
		}
		if r := s.File(tc.name); r.Status != StatusFailed {
			t.Errorf("File(%s) = %+v, want failed", tc.name, r)
		}
	}
	for _, p := range []struct{ src, msg string }{
		{"../../etc/passwd", "climbs out"},
		{"/etc/shadow", "absolute member name"},
		{"sys/escape", "outside the snapshot"},
		{"sys/loop-a", "symlink loop"},
	} {
		if !archive && strings.HasPrefix(p.msg, "a") || !archive && strings.HasPrefix(p.msg, "c") {
			continue // a folder cannot hold such members
		}
		if !hasProblem(s, p.src, p.msg) {
			t.Errorf("no problem %q for %s in %+v", p.msg, p.src, s.Problems())
		}
	}
	if at, ok := s.CollectedAt(); !ok || !at.Equal(time.Date(2024, 5, 1, 10, 20, 30, 0, time.UTC)) {
		t.Errorf("CollectedAt = %v, %v", at, ok)
	}
	// WalkDir over the whole tree ends, despite the loops.
	n := 0
	if err := fs.WalkDir(s.FS(), ".", func(string, fs.DirEntry, error) error { n++; return nil }); err != nil {
		t.Error(err)
	}
	if n == 0 {
		t.Error("walk saw nothing")
	}
}

func TestFolderSnapshotStaysInside(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "snap")
	outside := filepath.Join(base, "secret")
	if err := os.WriteFile(outside, []byte("do not read"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "sosreport-node17-2024-05-01-abcdef")
	members := sosMembers("x")
	for _, m := range members {
		if strings.HasPrefix(m.Name, "/") || strings.HasPrefix(m.Name, "..") {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(m.Name, "x/")))
		switch {
		case strings.HasSuffix(m.Name, "/"):
			must(t, os.MkdirAll(p, 0o755))
		case m.Link != "":
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.Symlink(m.Link, p))
		default:
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, []byte(m.Body), 0o644))
		}
	}
	must(t, os.Symlink("../../../secret", filepath.Join(root, "sys", "to-secret")))
	must(t, os.Symlink(outside, filepath.Join(root, "sys", "to-secret-abs")))
	s, err := Open(dir) // the wrapper folder is found and entered
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != KindSosreport {
		t.Errorf("Kind = %q", s.Kind)
	}
	checkSosSnapshot(t, s, false)
	for _, name := range []string{"sys/to-secret", "sys/to-secret-abs"} {
		if r := s.File(name); r.OK() || bytes.Contains(r.Data, []byte("do not read")) {
			t.Errorf("%s read outside the snapshot: %+v", name, r)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestHugeMemberIsCapped(t *testing.T) {
	t.Parallel()
	const declared = 2 << 30 // 2 GiB, never allocated: the member is sparse
	s := openMembers(t, "gz", []tartest.Member{
		{Name: "var/log/dmesg", Body: "[    0.000000] Linux version 6.1\n", Size: declared},
		{Name: "etc/hostname", Body: "h1\n"},
	}, 1<<20)
	r := s.File("var/log/dmesg")
	if !r.OK() || !r.Truncated || len(r.Data) != 1<<20 || !bytes.HasPrefix(r.Data, []byte("[    0.000000] Linux")) {
		t.Errorf("dmesg: status %s truncated %v len %d", r.Status, r.Truncated, len(r.Data))
	}
	if !hasProblem(s, "var/log/dmesg", "2147483648 bytes, larger than the per-file cap of 1048576") {
		t.Errorf("problems: %+v", s.Problems())
	}
	if r := s.File("etc/hostname"); string(r.Data) != "h1\n" {
		t.Errorf("member after the huge one: %+v", r)
	}
}

func TestDamagedArchives(t *testing.T) {
	t.Parallel()
	var good bytes.Buffer
	must(t, tartest.Write(&good, "", []tartest.Member{{Name: "etc/hostname", Body: "h1\n"}, {Name: "proc/modules", Body: strings.Repeat("x", 4000)}}))
	// Cut inside the second member: the first survives, with a problem.
	s, err := OpenArchive(bytes.NewReader(good.Bytes()[:2048]), "cut.tar", 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := s.File("etc/hostname"); string(r.Data) != "h1\n" {
		t.Errorf("hostname: %+v", r)
	}
	if !hasProblem(s, "archive", "archive is damaged after 2 members") {
		t.Errorf("problems for an archive cut inside a member: %+v", s.Problems())
	}
	// Cut between members: archive/tar sees a clean end, kbcollect does not.
	s, err = OpenArchive(bytes.NewReader(good.Bytes()[:1024]), "cut.tar", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !hasProblem(s, "archive", "without its end-of-archive marker after 1 members") {
		t.Errorf("problems for an archive cut between members: %+v", s.Problems())
	}
	for name, data := range map[string][]byte{
		"garbage": bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 300),
		"empty":   nil,
		"bad gz":  {0x1f, 0x8b, 8, 0, 0, 0},
		"zstd":    {0x28, 0xb5, 0x2f, 0xfd, 0},
	} {
		if _, err := OpenArchive(bytes.NewReader(data), name, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestEmptySosreport(t *testing.T) {
	t.Parallel()
	s := openMembers(t, "xz", []tartest.Member{{Name: "sosreport-empty-2024/"}, {Name: "sosreport-empty-2024/sos_commands/"}}, 0)
	if s.Kind != KindSosreport {
		t.Errorf("Kind = %q", s.Kind)
	}
	if r := s.Command("ibv_devinfo -v"); r.Status != StatusAbsent {
		t.Errorf("%+v", r)
	}
	if r := s.File("sys/class/infiniband"); r.Status != StatusAbsent {
		t.Errorf("%+v", r)
	}
}

func TestFromFSCapsAndLinks(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"sys/class/infiniband/mlx5_0":                           {Data: []byte("../../devices/pci/0000:3b:00.0/infiniband/mlx5_0"), Mode: fs.ModeSymlink},
		"sys/devices/pci/0000:3b:00.0/infiniband/mlx5_0/fw_ver": {Data: []byte("16.35.2000\n")},
		"var/log/big": {Data: bytes.Repeat([]byte("a"), 5000)},
	}
	s := FromFS(fsys, KindRoot, "mapfs")
	s.MaxFile = 1024
	if r := s.File("sys/class/infiniband/mlx5_0/fw_ver"); string(r.Data) != "16.35.2000\n" {
		t.Errorf("%+v", r)
	}
	r := s.File("var/log/big")
	if !r.Truncated || len(r.Data) != 1024 {
		t.Errorf("truncated %v len %d", r.Truncated, len(r.Data))
	}
	data, err := fs.ReadFile(s.FS(), "var/log/big")
	if err != nil || len(data) != 1024 {
		t.Errorf("ReadFile through FS: %d bytes, %v", len(data), err)
	}
	if !hasProblem(s, "var/log/big", "per-file cap of 1024") {
		t.Errorf("problems: %+v", s.Problems())
	}
	if err := fstest.TestFS(s.FS(), "sys/devices/pci/0000:3b:00.0/infiniband/mlx5_0/fw_ver"); err != nil {
		t.Error(err)
	}
}

func TestAllowList(t *testing.T) {
	t.Parallel()
	s := FromFS(fstest.MapFS{"sys/class/net/eth0/mtu": {Data: []byte("1500\n")}}, KindLive, "test")
	for cmd, want := range map[string]bool{
		"ibv_devinfo -v":            true,
		"ethtool -i eth0":           true,
		"ethtool -i eth9":           false, // no such netdev
		"ethtool -i ../../bin/sh":   false,
		"modinfo mlx5_core":         true,
		"modinfo mlx5_core; reboot": false,
		"rm -rf /":                  false,
		"ibv_devinfo -v -d x":       false,
		"/bin/sh -c id":             false,
	} {
		if got := s.Allowed(cmd); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func fakeTool(t *testing.T, script string) func(string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "tool")
	must(t, os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	return func(name string) (string, error) {
		if name == "ibstat" {
			return p, nil
		}
		return "", os.ErrNotExist
	}
}

func liveWith(t *testing.T, script string) *Snapshot {
	s := FromFS(fstest.MapFS{}, KindLive, "test")
	s.live = newRunner(s)
	s.live.lookPath = fakeTool(t, script)
	s.live.prefetch.Do(func() {}) // only what the test asks for
	return s
}

func TestLiveCommands(t *testing.T) {
	t.Parallel()
	t.Run("hang", func(t *testing.T) {
		t.Parallel()
		s := liveWith(t, "echo started; sleep 30")
		s.Timeout = 200 * time.Millisecond
		r := s.Command("ibstat")
		if r.Status != StatusFailed || !strings.Contains(r.Reason, "timed out after 200ms") {
			t.Errorf("%+v", r)
		}
	})
	t.Run("ok", func(t *testing.T) {
		t.Parallel()
		s := liveWith(t, `echo "CA 'mlx5_0'"`)
		r := s.Command("ibstat")
		if !r.OK() || string(r.Data) != "CA 'mlx5_0'\n" || r.Path != "sos_commands/infiniband/ibstat" {
			t.Errorf("%+v", r)
		}
	})
	t.Run("exit", func(t *testing.T) {
		t.Parallel()
		s := liveWith(t, "echo 'ibpanic: no IB devices' >&2; exit 3")
		r := s.Command("ibstat")
		if r.Status != StatusFailed || r.Reason != "exit status 3: ibpanic: no IB devices" {
			t.Errorf("%+v", r)
		}
	})
	t.Run("cap", func(t *testing.T) {
		t.Parallel()
		s := liveWith(t, "head -c 100000 /dev/zero")
		s.MaxFile = 4096
		r := s.Command("ibstat")
		if !r.OK() || !r.Truncated || len(r.Data) != 4096 {
			t.Errorf("status %s truncated %v len %d", r.Status, r.Truncated, len(r.Data))
		}
	})
	t.Run("absent", func(t *testing.T) {
		t.Parallel()
		s := liveWith(t, "true")
		if r := s.Command("ibv_devices"); r.Status != StatusAbsent || !strings.Contains(r.Reason, "not installed") {
			t.Errorf("%+v", r)
		}
		if r := s.Command("reboot"); r.Status != StatusFailed {
			t.Errorf("%+v", r)
		}
	})
}

func TestCaptureRoundTrip(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"sys/class/net/eth0":             {Data: []byte("../../devices/p/net/eth0"), Mode: fs.ModeSymlink},
		"sys/devices/p/net/eth0/address": {Data: []byte("08:c0:eb:12:34:56\n")},
		"sys/devices/p/net/eth0/device":  {Data: []byte("../../../p"), Mode: fs.ModeSymlink},
		"sys/devices/p/vendor":           {Data: []byte("0x15b3\n")},
		"sys/devices/p/msi_irqs/41":      {Data: []byte("msix\n")},
		"sys/devices/p/msi_irqs/42":      {Data: []byte("msix\n")},
		"sys/devices/p/power/control":    {Data: []byte("on\n")},
		"etc/os-release":                 {Data: []byte("ID=rhel\n")},
	}
	s := FromFS(fsys, KindLive, "test")
	s.live = newRunner(s)
	s.live.lookPath = fakeTool(t, "echo hello")
	s.live.prefetch.Do(func() {})
	s.collectedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	must(t, s.Record())
	// What a collector would do.
	_ = s.File("sys/class/net/eth0/address")
	_, _ = fs.ReadDir(s.FS(), "sys/class/net/eth0/device/msi_irqs")
	_, _ = fs.ReadDir(s.FS(), "sys/class/net/eth0/device/power")
	_ = s.Command("ibstat")
	_ = s.Command("ibv_devinfo")
	var buf bytes.Buffer
	must(t, s.WriteCapture(&buf, "test"))
	checkDeterministicTar(t, buf.Bytes())
	c, err := OpenArchive(bytes.NewReader(buf.Bytes()), "cap.tar.gz", 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != KindCapture {
		t.Errorf("Kind = %q", c.Kind)
	}
	if at, ok := c.CollectedAt(); !ok || !at.Equal(s.collectedAt) {
		t.Errorf("CollectedAt = %v", at)
	}
	if r := c.File("sys/class/net/eth0/address"); string(r.Data) != "08:c0:eb:12:34:56\n" {
		t.Errorf("%+v", r)
	}
	if target, _ := fs.ReadLink(c.FS(), "sys/class/net/eth0"); target != "../../devices/p/net/eth0" {
		t.Errorf("symlink kept as symlink: %q", target)
	}
	if e, _ := fs.ReadDir(c.FS(), "sys/class/net/eth0/device/msi_irqs"); len(e) != 2 {
		t.Errorf("msi_irqs entries: %d", len(e))
	}
	for cmd, want := range map[string]Result{
		"ibstat":      {Status: StatusOK, Path: "sos_commands/infiniband/ibstat", Data: []byte("hello\n")},
		"ibv_devinfo": {Status: StatusAbsent, Path: "sos_commands/infiniband/ibv_devinfo", Reason: "ibv_devinfo is not installed (not found in PATH)"},
	} {
		live, replay := s.Command(cmd), c.Command(cmd)
		if string(live.Data) != string(replay.Data) || live.Status != replay.Status || live.Reason != replay.Reason || live.Path != replay.Path {
			t.Errorf("%s: live %+v, replay %+v", cmd, live, replay)
		}
		if replay.Status != want.Status || replay.Path != want.Path || string(replay.Data) != string(want.Data) || replay.Reason != want.Reason {
			t.Errorf("%s: replay %+v, want %+v", cmd, replay, want)
		}
	}
	if len(c.Commands()) != 2 {
		t.Errorf("Commands: %+v", c.Commands())
	}
	// Extracted to a folder, the capture replays the same: a file listed
	// on the host but never read fails the same way in both.
	dir := extract(t, buf.Bytes())
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != KindCapture {
		t.Errorf("folder Kind = %q", d.Kind)
	}
	for _, snap := range []*Snapshot{c, d} {
		if r := snap.File("sys/devices/p/power/control"); r.Status != StatusFailed || !strings.Contains(r.Reason, notSaved) {
			t.Errorf("%s: unread file: %+v", snap.Name, r)
		}
		if r := snap.Command("ibstat"); string(r.Data) != "hello\n" {
			t.Errorf("%s: ibstat: %+v", snap.Name, r)
		}
	}
}

// extract unpacks a capture tarball into a temporary folder.
func extract(t *testing.T, data []byte) string {
	t.Helper()
	dir := t.TempDir()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return dir
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		switch h.Typeflag {
		case tar.TypeDir:
			must(t, os.MkdirAll(p, 0o755))
		case tar.TypeSymlink:
			must(t, os.Symlink(h.Linkname, p))
		default:
			b, err := io.ReadAll(tr)
			must(t, err)
			must(t, os.WriteFile(p, b, 0o644))
		}
	}
}

// FuzzOpenArchive: any bytes either fail to open or give a snapshot whose
// whole tree can be walked and read, within the cap, without a panic.
// fuzzLimits are the archive budgets of FuzzOpenArchive. Go's fuzzer
// minimizes every input that finds new coverage before it goes on, for up
// to -fuzzminimizetime (60 s), with a number of tries that grows with the
// square of the input's length. The old seeds were plain and compressed
// tarballs of 5 to 16 KiB, and the decompressors keep finding new coverage,
// so each worker spent nearly all its time minimizing: 7 execs in 10 s. The
// seeds are now one small tarball compressed with gzip and with xz (a few
// hundred bytes, so a minimization takes well under a second); plain tar
// input is reached by mutation and tested by the unit tests. Within these
// budgets the reader stops after a few kilobytes, so bytes past them add no
// coverage and the minimizer's first step (cut the tail) drops them, and an
// xz header cannot make each run allocate 256 MiB. The production limits
// are untouched.
var fuzzLimits = archiveLimits{total: 2048, members: 16, xzDict: 1 << 20, stream: 8 << 10}

func FuzzOpenArchive(f *testing.F) {
	small := []tartest.Member{
		{Name: "sosreport-h/sos_commands/infiniband/ibv_devinfo_-v", Body: "hca_id:\tmlx5_0\n"},
		{Name: "sosreport-h/lspci", Link: "sos_commands/pci/lspci_-nnvv"},
		{Name: "../x", Body: "x"},
		{Name: "sosreport-h/var/log/dmesg", Body: "x", Size: 1 << 20},
	}
	var tarball bytes.Buffer
	if err := tartest.Write(&tarball, "", small); err != nil {
		f.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(tarball.Bytes()); err != nil || zw.Close() != nil {
		f.Fatal(err)
	}
	f.Add(gz.Bytes())
	// xz with a 64 KiB dictionary: the default 8 MiB would be allocated on
	// every run.
	var xzb bytes.Buffer
	xw, err := xz.WriterConfig{DictCap: 64 << 10}.NewWriter(&xzb)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := xw.Write(tarball.Bytes()); err != nil || xw.Close() != nil {
		f.Fatal(err)
	}
	f.Add(xzb.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := openArchive(bytes.NewReader(data), "fuzz.tar", 512, fuzzLimits)
		if err != nil {
			return
		}
		_ = fs.WalkDir(s.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if r := s.File(p); len(r.Data) > 512 {
				t.Fatalf("%s: %d bytes over the cap", p, len(r.Data))
			}
			_, _ = fs.ReadLink(s.FS(), p)
			return nil
		})
		_ = s.Command("ibv_devinfo -v")
		_, _ = s.CollectedAt()
		_ = s.Problems()
	})
}

// The fuzz budgets are smaller than production's, and production's are
// what OpenArchive uses.
func TestFuzzLimitsAreNotProduction(t *testing.T) {
	t.Parallel()
	if productionLimits.total != DefaultMaxTotal || productionLimits.members != DefaultMaxMembers || productionLimits.xzDict != maxXZDict || productionLimits.stream != 0 {
		t.Errorf("production limits changed: %+v", productionLimits)
	}
	if fuzzLimits.total >= productionLimits.total || fuzzLimits.members >= productionLimits.members {
		t.Errorf("fuzz limits %+v are not small", fuzzLimits)
	}
}

// checkDeterministicTar requires the manifest first, then members in name
// order, all with the fixed time and owner.
func checkDeterministicTar(t *testing.T, data []byte) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(fixedTime) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("%s: time %v uid %d gid %d uname %q", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
		names = append(names, strings.TrimSuffix(h.Name, "/"))
	}
	if len(names) == 0 || names[0] != ManifestName {
		t.Fatalf("first member is not the manifest: %v", names)
	}
	if !slices.IsSorted(names[1:]) {
		t.Errorf("members not sorted: %v", names)
	}
	if !slices.Contains(names, "sos_commands/infiniband/ibstat") || !slices.Contains(names, "sys/class/net/eth0") {
		t.Errorf("members: %v", names)
	}
}

func TestArchiveTotalBudget(t *testing.T) {
	t.Parallel()
	var members []tartest.Member
	for i := range 5 {
		members = append(members, tartest.Member{Name: fmt.Sprintf("var/log/f%d", i), Body: strings.Repeat("x", 4000)})
	}
	var buf bytes.Buffer
	must(t, tartest.Write(&buf, "", members))
	st := newState(func() int64 { return DefaultMaxFile })
	tree, err := readArchive(&buf, st, archiveLimits{total: 10_000, members: DefaultMaxMembers, xzDict: maxXZDict})
	if err != nil {
		t.Fatal(err)
	}
	var kept int
	for _, n := range tree.nodes {
		kept += len(n.data)
	}
	if kept > 10_000 {
		t.Errorf("kept %d bytes over a 10000-byte budget", kept)
	}
	s := &Snapshot{st: st}
	if len(s.Problems()) == 0 {
		t.Error("no problem for an archive over its budget")
	}
}

func TestArchiveIsAnFS(t *testing.T) {
	t.Parallel()
	var clean []tartest.Member
	for _, m := range sosMembers("sosreport-h") {
		if !strings.Contains(m.Name, "escape") && !strings.Contains(m.Name, "loop") && !strings.Contains(m.Name, "self") && strings.HasPrefix(m.Name, "sosreport-h") {
			clean = append(clean, m)
		}
	}
	s := openMembers(t, "gz", clean, 0)
	if err := fstest.TestFS(s.FS(), "version.txt", "sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/vendor", "lspci", "sys/class/net/eth0"); err != nil {
		t.Error(err)
	}
}

func TestXZDictionaryLimit(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	must(t, tartest.Write(&buf, "xz", []tartest.Member{{Name: "etc/hostname", Body: "h1\n"}}))
	data := buf.Bytes()
	dict, ok := xzDictSize(data)
	if !ok || dict != 8<<20 {
		t.Fatalf("dictionary of the writer's default stream = %d, %v; want 8 MiB", dict, ok)
	}
	// Find the LZMA2 property byte (filter id 0x21, size 1) and ask for 4 GiB.
	hostile := bytes.Clone(data)
	i := bytes.Index(hostile[12:12+int(hostile[12]+1)*4], []byte{0x21, 0x01})
	if i < 0 {
		t.Fatal("no LZMA2 filter in the first block header")
	}
	hostile[12+i+2] = 40
	_, err := OpenArchive(bytes.NewReader(hostile), "big-dict.tar.xz", 0)
	if err == nil || !strings.Contains(err.Error(), "4095 MiB dictionary") {
		t.Errorf("err = %v", err)
	}
}

// blockingTree is a backend whose files never answer, like the sysfs
// attribute of a wedged device.
type blockingTree struct {
	memTree
	block chan struct{}
}

type blockingFile struct {
	fs.File
	block chan struct{}
}

func (b blockingFile) Read([]byte) (int, error) { <-b.block; return 0, io.EOF }

func (b *blockingTree) open(p string) (fs.File, error) {
	f, err := b.memTree.open(p)
	if err != nil {
		return nil, err
	}
	return blockingFile{File: f, block: b.block}, nil
}

func TestLiveReadTimeout(t *testing.T) {
	t.Parallel()
	tree := newMemTree()
	tree.add("sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data", &memNode{data: []byte("1\n")})
	tree.finish()
	b := &blockingTree{memTree: *tree, block: make(chan struct{})}
	t.Cleanup(func() { close(b.block) })
	s := newSnapshot(KindLive, "test")
	s.Timeout = 100 * time.Millisecond
	s.fsys = &treeFS{b: b, st: s.st, readTimeout: s.timeout}
	r := s.File("sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data")
	if r.Status != StatusFailed || !strings.Contains(r.Reason, "timed out") {
		t.Errorf("%+v", r)
	}
	if !hasProblem(s, "sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data", "did not answer within 100ms") {
		t.Errorf("problems: %+v", s.Problems())
	}
}

// The manifest is a stored format: its problems keep the keys that
// captures written before snapshot had its own Problem type use.
func TestManifestProblemsFormat(t *testing.T) {
	t.Parallel()
	const old = `{"format":1,"max_file":0,"timeout_ms":0,"commands":null,"problems":[{"source":"sys/escape","msg":"symlink points outside the snapshot"}]}`
	var m Manifest
	if err := json.Unmarshal([]byte(old), &m); err != nil {
		t.Fatal(err)
	}
	if want := []Problem{{Source: "sys/escape", Msg: "symlink points outside the snapshot"}}; !slices.Equal(m.Problems, want) {
		t.Errorf("problems = %+v, want %+v", m.Problems, want)
	}
	got, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != old {
		t.Errorf("manifest re-encodes as\n%s\nwant\n%s", got, old)
	}
}

// TestReadMemberIsReadAll: reading a member into a buffer of its header's
// size gives what io.ReadAll of the capped member gave, whatever the
// header says.
func TestReadMemberIsReadAll(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("x", 100)
	for _, c := range []struct{ size, limit int64 }{
		{100, 1000}, {100, 100}, {100, 99}, {100, 10}, {0, 10}, {50, 1000}, {200, 1000}, {-1, 1000}, {exactRead + 1, 1000},
	} {
		want, wantErr := io.ReadAll(io.LimitReader(strings.NewReader(body), c.limit+1))
		got, err := readMember(strings.NewReader(body), c.size, c.limit)
		if string(got) != string(want) || (err == nil) != (wantErr == nil) {
			t.Errorf("size %d limit %d: got %d bytes, %v; want %d bytes, %v", c.size, c.limit, len(got), err, len(want), wantErr)
		}
	}
	// A member cut short keeps what was read and says so.
	got, err := readMember(io.MultiReader(strings.NewReader(body[:40]), iotest.ErrReader(io.ErrUnexpectedEOF)), 100, 1000)
	if string(got) != body[:40] || err != io.ErrUnexpectedEOF {
		t.Errorf("cut member: got %d bytes, %v", len(got), err)
	}
}

// A supportconfig folder (wrapped in its scc_<host>_<date>/ folder) is a
// snapshot whose sections are offered where the collector looks.
func TestSupportconfigFolder(t *testing.T) {
	t.Parallel()
	s := openWrapped(t, "scc_node1_261201_1200", map[string]string{
		// Lines of real captures (testdata/captures/paste/ubuntu1204-…,
		// lspci/mlx5-cx6dx-grep-net.txt) in supportconfig's sections.
		"basic-environment.txt": "#==[ Command ]======================================#\n# /bin/uname -a\nLinux ubuntu 3.13.0-32-generic #57~precise1-Ubuntu SMP Tue Jul 15 03:51:20 UTC 2014 x86_64 x86_64 x86_64 GNU/Linux\n\n" +
			"#==[ Configuration File ]===========================#\n# /etc/os-release\nID=ubuntu\nVERSION_ID=\"12.04\"\n",
		"hardware.txt": "#==[ Command ]======================================#\n# /sbin/lspci\n86:00.0 Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]\n",
	})
	if s.Kind != KindSupportconfig {
		t.Errorf("kind %q", s.Kind)
	}
	if r := s.Command("uname -a"); !r.OK() || !strings.HasPrefix(string(r.Data), "Linux ubuntu ") || r.Path != "sos_commands/basic-environment/uname_-a" {
		t.Errorf("uname -a: %+v", r)
	}
	if r := s.Command("lspci"); !r.OK() || !strings.Contains(string(r.Data), "[ConnectX-6 Dx]") {
		t.Errorf("lspci: %+v", r)
	}
	if r := s.File("etc/os-release"); !r.OK() || !strings.Contains(string(r.Data), "ubuntu") {
		t.Errorf("os-release: %+v", r)
	}
}

// A sysinfo-snapshot folder of the 3.1.8 layout (no commands_txt_output/:
// err_messages/ beside the HTML, whose sections keep their newlines; a
// plain dmesg beside it) is a snapshot whose outputs are offered where the
// collector looks (the journal, journalctl -k -o short-monotonic, at its
// sos path in the kernel-log row's logs folder); what the tool could not
// run and handler sections are not. The lsmod and dmesg outputs are lines
// of real captures (lsmod/mlx5-inbox-grep-mlx.txt,
// dmesg/mlx5-cx4lx-log_max_qp-probe-failed-22.txt), the journal that
// line as short-monotonic writes it (systemd's src/shared/logs-show.c);
// /proc/modules is the lsmod line in that file's shape, the modinfo
// section only the handler's header.
func TestSysinfoSnapshotFolder(t *testing.T) {
	t.Parallel()
	lsmod := "mlx5_ib               495616  0\nmlx5_core            2469888  1 mlx5_ib\n"
	dmesg := "[   12.925245] mlx5_core 0000:03:00.0: firmware version: 14.32.1010\n"
	journal := "[   12.925245] host kernel: mlx5_core 0000:03:00.0: firmware version: 14.32.1010\n"
	s := openWrapped(t, "sysinfo-snapshot-v3.1.8-host-20170228-120000", map[string]string{
		"sysinfo-snapshot-v3.1.8-host-20170228-120000.html": `<html><body><pre><h1>Mellanox Technologies</h1><p>` +
			`<a name="sec1001"></a><small><a href="#index">[back to index]</a></small> <h2>lsmod</h2><p>` + lsmod + `</p>` +
			`<a name="sec1002"></a><h2>modinfo</h2><p>modinfo mlx5_core | grep 'filename\|version:'` + "\n\nfilename: x\n</p>" +
			`<a name="sec2001"></a><h2>ibstat</h2><p>Couldn't find command: ibstat</p>` +
			`<a name="sec3001"></a><h2>/proc/modules</h2><p>` + "mlx5_core 2469888 1 mlx5_ib, Live 0x0000000000000000\n</p></p></pre></body></html>",
		"dmesg":                        dmesg,
		"journal":                      journal,
		"err_messages/dummy_functions": "",
	})
	if s.Kind != KindSysinfoSnapshot {
		t.Errorf("kind %q", s.Kind)
	}
	if r := s.Command("lsmod"); !r.OK() || string(r.Data) != lsmod || r.Path != "sos_commands/kernel/lsmod" {
		t.Errorf("lsmod: %+v", r)
	}
	if r := s.Command("dmesg"); !r.OK() || string(r.Data) != dmesg {
		t.Errorf("dmesg: %+v", r)
	}
	if r := s.Command("dmesg -T"); r.OK() {
		t.Errorf("dmesg -T: %+v", r)
	}
	if r := s.File("proc/modules"); !r.OK() || !strings.HasPrefix(string(r.Data), "mlx5_core ") {
		t.Errorf("proc/modules: %+v", r)
	}
	if r := s.Command("journalctl -k -o short-monotonic"); !r.OK() || string(r.Data) != journal ||
		r.Path != "sos_commands/logs/journalctl_-k_-o_short-monotonic" {
		t.Errorf("journal: %+v", r)
	}
	for _, cmd := range []string{"ibstat", "modinfo mlx5_core"} {
		if r := s.Command(cmd); r.OK() {
			t.Errorf("%s: %+v", cmd, r)
		}
	}
}

// openWrapped writes files into a folder named top inside a temporary
// folder, as a tool wraps its output, and opens the temporary folder.
func openWrapped(t *testing.T, top string, files map[string]string) *Snapshot {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, top, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
