package render

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/site"
)

// Marker is written into every output folder. A folder without it is never
// replaced, so a mistyped --out cannot delete someone's files.
const Marker = ".kbgen-output"

// Layers is an ordered set of file systems; a later layer overrides an
// earlier one file by file. A nil layer is skipped.
type Layers []fs.FS

func (l Layers) files(dir string) (map[string]fs.FS, error) {
	out := map[string]fs.FS{}
	for _, fsys := range l {
		if fsys == nil {
			continue
		}
		err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == dir {
					return fs.SkipDir
				}
				return err
			}
			if !d.IsDir() {
				out[strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")] = fsys
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Render writes s into out. Templates come from templates/*.html and static
// files from static/ in the layers. The tree is built beside out and swapped
// in only when complete.
func Render(s *site.Site, layers Layers, out string) error {
	pages, err := Pages(s, layers)
	if err != nil {
		return err
	}
	statics, err := layers.files("static")
	if err != nil {
		return fmt.Errorf("read static files: %w", err)
	}
	for name, fsys := range statics {
		b, err := fs.ReadFile(fsys, path.Join("static", name))
		if err != nil {
			return fmt.Errorf("read static/%s: %w", name, err)
		}
		if _, dup := pages[name]; dup {
			return fmt.Errorf("static/%s collides with a generated page", name)
		}
		pages[name] = b
	}
	pages[Marker] = []byte("written by kbgen build; this folder is replaced on every build\n")
	return WriteTree(out, pages)
}

// Pages executes every page's template and returns output path → bytes.
func Pages(s *site.Site, layers Layers) (map[string][]byte, error) {
	tfiles, err := layers.files("templates")
	if err != nil {
		return nil, fmt.Errorf("read templates: %w", err)
	}
	base := template.New("").Funcs(funcs)
	names := make([]string, 0, len(tfiles))
	for n := range tfiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !strings.HasSuffix(n, ".html") {
			continue
		}
		b, err := fs.ReadFile(tfiles[n], path.Join("templates", n))
		if err != nil {
			return nil, err
		}
		if _, err := base.New(n).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("templates/%s: %w", n, err)
		}
	}
	out := map[string][]byte{}
	for _, p := range s.Pages {
		name := p.Template + ".html"
		if base.Lookup(name) == nil {
			return nil, fmt.Errorf("%s: no template %q", p.Path, name)
		}
		var buf bytes.Buffer
		data := View{Site: s, Page: p, Root: rootOf(p.Path), Data: p.Data}
		if err := base.ExecuteTemplate(&buf, name, data); err != nil {
			return nil, fmt.Errorf("%s: %w", p.Path, err)
		}
		out[p.Path] = buf.Bytes()
	}
	return out, nil
}

// View is what every template receives.
type View struct {
	Site *site.Site
	Page site.Page
	Root string // relative prefix from this page to the site root: "" or "../"
	Data any
}

// Rel links from this page to a site path, relatively, so the site works
// from file:// and under any base URL.
func (v View) Rel(p string) string {
	if strings.Contains(p, "://") {
		return p
	}
	return v.Root + p
}

func rootOf(p string) string { return strings.Repeat("../", strings.Count(p, "/")) }

var funcs = template.FuncMap{
	"link": site.Link,
	"join": strings.Join,
	"date": func(t interface{ Format(string) string }) string { return t.Format("2006-01-02") },
}

// WriteTree writes files (slash paths → contents) to dir atomically: it
// writes a sibling temporary folder, then swaps it in. An existing dir is
// replaced only if it is empty or holds the Marker file.
func WriteTree(dir string, files map[string][]byte) (err error) {
	dir = filepath.Clean(dir)
	if fi, statErr := os.Stat(dir); statErr == nil {
		if !fi.IsDir() {
			return fmt.Errorf("output %s exists and is not a folder", dir)
		}
		if _, mErr := os.Stat(filepath.Join(dir, Marker)); mErr != nil {
			entries, _ := os.ReadDir(dir)
			if len(entries) > 0 {
				return fmt.Errorf("output %s is not empty and was not written by kbgen (no %s); refusing to replace it", dir, Marker)
			}
		}
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !fs.ValidPath(n) {
			return fmt.Errorf("invalid output path %q", n)
		}
		target := filepath.Join(tmp, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[n], 0o644); err != nil {
			return err
		}
	}
	old := ""
	if _, statErr := os.Stat(dir); statErr == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("replace %s: %w", dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return fmt.Errorf("replace %s: %w", dir, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
