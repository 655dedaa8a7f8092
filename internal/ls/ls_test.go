package ls

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func ip(v int) *int { return &v }

// names lists a folder's entries as name[:type][ major,minor][->target].
func names(d Dir) []string {
	var out []string
	for _, e := range d.Entries {
		s := e.Name
		if e.Type != 0 {
			s += ":" + string(e.Type)
		}
		if e.Major != nil {
			s += " " + itoa(*e.Major) + "," + itoa(*e.Minor)
		}
		if e.Target != "" {
			s += "->" + e.Target
		}
		out = append(out, s)
	}
	return out
}

func itoa(v int) string { return strconv.Itoa(v) }

func TestRealCaptures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, folder string
		want         []string
	}{
		{"erdma-pod-ls-dev-infiniband-partial.txt", "/dev/infiniband", []string{"rdma_cm", "uverbs0"}},
		{"erdma-pod-ls-sys-class-infiniband-two.txt", "/sys/class/infiniband", []string{"erdma_0", "erdma_1"}},
		{"mlx5-talos-ls-la-by-ibdev-by-path.txt", "/dev/infiniband/", []string{"by-ibdev:d", "by-path:d", "uverbs0:c 231,192", "uverbs1:c 231,193", "uverbs2:c 231,194", "uverbs3:c 231,195"}},
		{"mlx5-pod-dev-infiniband-sys-class-three-folders.txt", "/sys/class/infiniband", []string{
			"mlx5_0:l->../../devices/pci0000:c0/0000:c0:03.2/0000:c3:00.0/infiniband/mlx5_0",
			"mlx5_1:l->../../devices/pci0000:c0/0000:c0:03.2/0000:c3:00.1/infiniband/mlx5_1"}},
	} {
		l, err := Parse(bytes.NewReader(capturetest.Read(t, "ls", tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		d, ok := l.Folder(tc.folder)
		if !ok {
			t.Fatalf("%s: no folder %s in %+v", tc.file, tc.folder, l)
		}
		if diff := cmp.Diff(tc.want, names(d)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, diff)
		}
	}
	// The pod's three folders, each under its header; the cut lines of
	// truncated pastes are no entries.
	l, _ := Parse(bytes.NewReader(capturetest.Read(t, "ls", "mlx5-pod-dev-infiniband-sys-class-three-folders.txt")))
	if len(l.Dirs) != 3 || l.Dirs[0].Path != "/dev/infiniband" || len(l.Dirs[0].Entries) != 7 || *l.Dirs[0].Entries[5].Major != 231 || *l.Dirs[0].Entries[5].Minor != 192 || l.Dirs[0].Entries[5].Mode != "crw-rw-rw-" {
		t.Errorf("three folders: %+v", l.Dirs)
	}
	for file, last := range map[string]string{"mlx5-privileged-pod-ll-truncated.txt": "umad4", "mlx5-gpu-host-ls-alh-truncated.txt": "uverbs0"} {
		l, _ := Parse(bytes.NewReader(capturetest.Read(t, "ls", file)))
		d, _ := l.Folder("")
		if got := d.Entries[len(d.Entries)-1].Name; got != last {
			t.Errorf("%s: last entry %q, want %q (the cut line dropped)", file, got, last)
		}
		for _, e := range d.Entries {
			if e.Name == "." || e.Name == ".." {
				t.Errorf("%s: %q listed", file, e.Name)
			}
		}
	}
}

// ls's forms, from coreutils' ls: -1, -F's marks, -n's numbers, an ISO
// --time-style, a device printed "231,192", an SELinux mark on the mode,
// and its error lines with and without quotes.
func TestForms(t *testing.T) {
	t.Parallel()
	in := "$ ls /dev/infiniband/\nuverbs0\nuverbs1\n" +
		"mlx5_0@  mlx5_1@\n"
	l, _ := Parse(strings.NewReader(in))
	if d, _ := l.Folder(""); !cmp.Equal(names(d), []string{"uverbs0", "uverbs1", "mlx5_0", "mlx5_1"}) {
		t.Errorf("short forms: %v", names(d))
	}
	l, _ = Parse(strings.NewReader("crw-rw-rw-. 1 0 0 231, 192 2024-05-15 11:49 uverbs0\ncrw-rw-rw- 1 root root 231,193 2024-05-15 11:49:01.000000000 +0000 uverbs1\n"))
	d, _ := l.Folder("")
	want := []Entry{
		{Name: "uverbs0", Type: 'c', Mode: "crw-rw-rw-.", Major: ip(231), Minor: ip(192), Line: 1},
		{Name: "uverbs1", Type: 'c', Mode: "crw-rw-rw-", Major: ip(231), Minor: ip(193), Line: 2},
	}
	if diff := cmp.Diff(want, d.Entries); diff != "" {
		t.Errorf("long forms (-want +got):\n%s", diff)
	}
	l, _ = Parse(strings.NewReader("ls: cannot access '/dev/infiniband': No such file or directory\nls: cannot access /sys/class/infiniband: No such file or directory\nls: cannot open directory '/x': Permission denied\n"))
	if _, ok := l.Missing("/dev/infiniband/"); !ok || len(l.Dirs) != 0 || len(l.Problems) != 3 || l.Problems[2].Missing {
		t.Errorf("errors: %+v", l)
	}
	if _, ok := l.Missing("/sys/class/infiniband"); !ok {
		t.Errorf("unquoted path: %+v", l.Problems)
	}
}

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "ls")
	f.Fuzz(func(t *testing.T, b []byte) {
		l, _ := Parse(bytes.NewReader(b))
		n := 0
		for _, d := range l.Dirs {
			n += len(d.Entries)
		}
		if n > MaxEntries {
			t.Fatalf("%d entries", n)
		}
	})
}
