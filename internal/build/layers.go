package build

import (
	"io"
	"io/fs"
	"os"

	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
)

// verdictFiles emits verdicts.js and verdicts/<adapter>.js, the engine's
// verdicts the home page's form shows (see site.AdapterVerdicts).
func verdictFiles(s *site.Site) render.Producer {
	return func(emit func(render.Output) error) error {
		if err := emit(render.Func("verdicts.js", s.WriteVerdictIndex)); err != nil {
			return err
		}
		if err := emit(render.Bytes("verdicts/index.html", site.DataIndex("verdicts", "the verdicts the home page's form shows, one file per adapter", "index.html"))); err != nil {
			return err
		}
		for _, id := range s.VerdictAdapters() {
			id := id
			if err := emit(render.Func("verdicts/"+id+".js", func(w io.Writer) error { return s.WriteAdapterVerdicts(w, id) })); err != nil {
				return err
			}
		}
		return nil
	}
}

// dirLayer exposes a folder as the named top-level folder of a layer.
func dirLayer(dir, as string) fs.FS {
	if dir == "" {
		return nil
	}
	// Read through an os.Root: a link in the folder may point inside it,
	// never out (evil.txt -> /etc/passwd is an error, not a published file).
	if root, err := os.OpenRoot(dir); err == nil {
		return prefixFS{prefix: as, fsys: root.FS()}
	}
	return prefixFS{prefix: as, fsys: os.DirFS(dir)}
}

// prefixFS mounts fsys under prefix.
type prefixFS struct {
	prefix string
	fsys   fs.FS
}

func (p prefixFS) Open(name string) (fs.File, error) {
	if name == p.prefix {
		return p.fsys.Open(".")
	}
	if len(name) > len(p.prefix) && name[:len(p.prefix)+1] == p.prefix+"/" {
		return p.fsys.Open(name[len(p.prefix)+1:])
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
