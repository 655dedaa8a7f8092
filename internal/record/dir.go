package record

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/diag"
)

// MaxDepth is how many folders below the one named LoadDir descends.
const MaxDepth = 8

// skipDirs are folders that never hold host records.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// Load reads host records from a file or a folder on disk, as kbgen build
// and check name them. A missing path is an error (errors.Is
// fs.ErrNotExist); problems in what it reads come back as a list.
func Load(name string) ([]*Host, diag.List, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if st.IsDir() {
		hosts, probs := LoadDir(os.DirFS(name), name)
		return hosts, probs, nil
	}
	dir, file := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	h, probs := loadFile(os.DirFS(dir), file, filepath.ToSlash(name))
	if h == nil {
		return nil, probs, nil
	}
	return []*Host{h}, probs, nil
}

// LoadDir reads every *.toml and *.json record in fsys, recursively, in
// name order. It skips .git and node_modules, sosreport folders and
// anything deeper than MaxDepth folders. name prefixes file names in
// problems. A missing folder holds no records. When it finds no record but
// snapshots, it says so and how to turn them into records.
func LoadDir(fsys fs.FS, name string) ([]*Host, diag.List) {
	var hosts []*Host
	var probs diag.List
	var files, snapshots []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "." {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			switch {
			case p == ".":
				if isSosreport(fsys, p) {
					snapshots = append(snapshots, p)
					return fs.SkipDir
				}
			case skipDirs[d.Name()]:
				return fs.SkipDir
			case strings.Count(p, "/")+1 > MaxDepth:
				probs.Warn(path.Join(name, p), diag.Pos{}, "not read: more than %d folders deep", MaxDepth)
				return fs.SkipDir
			case isSosreport(fsys, p):
				snapshots = append(snapshots, p)
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case isRecordName(p):
			files = append(files, p)
		case isSnapshot(p):
			snapshots = append(snapshots, p)
		}
		return nil
	})
	if err != nil {
		probs.Add(name, diag.Pos{}, "read records: %v", err)
		return nil, probs
	}
	sort.Strings(files)
	for _, f := range files {
		if h, ps := loadFile(fsys, f, path.Join(name, f)); h != nil {
			hosts = append(hosts, h)
			probs = append(probs, ps...)
		} else {
			probs = append(probs, ps...)
		}
	}
	if len(files) == 0 && len(snapshots) > 0 {
		sort.Strings(snapshots)
		first := snapshots[0]
		what := notRecord(first)
		if first == "." || !isSnapshot(first) {
			what = "looks like a sosreport folder: run kbcollect on it first (kbcollect --root " + path.Join(name, first) + " > host.toml)"
		}
		probs.Warn(path.Join(name, first), diag.Pos{}, "no host record here, only %d snapshot(s); this one %s", len(snapshots), what)
	}
	probs.Sort()
	return hosts, probs
}

// loadFile decodes one record. A file that is not a record gets a plain
// problem naming what it looks like and the likely fix.
func loadFile(fsys fs.FS, f, display string) (*Host, diag.List) {
	var probs diag.List
	if !isRecordName(f) {
		probs.Add(display, diag.Pos{}, "%s", notRecord(f))
		return nil, probs
	}
	src, err := fs.ReadFile(fsys, f)
	if err != nil {
		probs.Add(display, diag.Pos{}, "read: %v", unwrapPath(err))
		return nil, probs
	}
	h, ps := Decode(display, src)
	if h == nil && strings.HasSuffix(f, ".json") && looksLikeCheckOutput(src) {
		probs.Add(display, diag.Pos{}, "looks like kbgen check --format json output, not a host record: give the records it was made from")
		return nil, probs
	}
	probs = append(probs, ps...)
	if h != nil && h.Host.ID == "" {
		// A record without a host id (no hostname in the snapshot) is
		// named after its file, in parentheses, so every host in the
		// output can be told apart.
		base := path.Base(f)
		h.Host.ID = "(" + strings.TrimSuffix(base, path.Ext(base)) + ")"
	}
	return h, probs
}

func isRecordName(p string) bool {
	return strings.HasSuffix(p, ".toml") || strings.HasSuffix(p, ".json")
}

// isSnapshot reports whether a file is one kbcollect reads rather than
// kbgen: a capture (txtar) or a sosreport or capture archive.
func isSnapshot(p string) bool {
	for _, ext := range []string{".txtar", ".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// notRecord says what a file that is not a record looks like, and the fix.
func notRecord(p string) string {
	const records = "host records are the *.toml or *.json files kbcollect writes"
	switch {
	case strings.HasSuffix(p, ".txtar"):
		return "looks like a snapshot: run kbcollect on it first"
	case isSnapshot(p):
		return "looks like a sosreport or capture archive: run kbcollect on it first (kbcollect " + path.Base(p) + " > host.toml)"
	case strings.HasSuffix(p, ".md"):
		return "is Markdown, not a host record: " + records
	}
	return "not a host record: " + records
}

// isSosreport reports whether folder p of fsys is an unpacked sosreport.
func isSosreport(fsys fs.FS, p string) bool {
	st, err := fs.Stat(fsys, path.Join(p, "sos_commands"))
	return err == nil && st.IsDir()
}

// looksLikeCheckOutput spots the top-level keys kbgen check --format json writes.
func looksLikeCheckOutput(src []byte) bool {
	s := strings.TrimSpace(string(src))
	if !strings.HasPrefix(s, "{") {
		return false
	}
	for _, k := range []string{`"hosts"`, `"verdict"`, `"walks"`, `"findings"`, `"results"`} {
		if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(s, "{")), k) {
			return true
		}
	}
	return false
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
