package preview

import (
	"bytes"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
)

// serveFile serves a file of the site: a folder its index.html (never a
// listing), a missing file or any dot file (the build's marker) 404.html.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	upath := path.Clean("/" + r.URL.Path)
	for _, seg := range strings.Split(upath, "/") {
		if strings.HasPrefix(seg, ".") {
			s.notFound(w, r)
			return
		}
	}
	name := filepath.Join(s.opts.Dir, filepath.FromSlash(upath))
	fi, err := os.Stat(name)
	if err == nil && fi.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Pages link relatively: adapter/ must end in a slash for
			// adapter/index.html's links to resolve.
			http.Redirect(w, r, path.Base(upath)+"/", http.StatusMovedPermanently)
			return
		}
		name = filepath.Join(name, "index.html")
		fi, err = os.Stat(name)
	}
	if err != nil || fi.IsDir() {
		if upath == "/favicon.ico" {
			// Browsers ask for it unasked; a site without one gets no error.
			w.WriteHeader(http.StatusNoContent)
			return
		}
		s.notFound(w, r)
		return
	}
	send(w, r, name, fi, http.StatusOK)
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	name := filepath.Join(s.opts.Dir, page.Path(page.NotFound, ""))
	fi, err := os.Stat(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	send(w, r, name, fi, http.StatusNotFound)
}

// send writes a file; HTML gets the reload script before </body>.
func send(w http.ResponseWriter, r *http.Request, name string, fi fs.FileInfo, status int) {
	w.Header().Set("Cache-Control", "no-cache")
	if !strings.HasSuffix(name, ".html") {
		f, err := os.Open(name)
		if err != nil {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		defer f.Close()
		http.ServeContent(w, r, name, fi.ModTime(), f)
		return
	}
	b, err := os.ReadFile(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	b = injectReload(b)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

func injectReload(b []byte) []byte {
	i := bytes.LastIndex(b, []byte("</body>"))
	if i < 0 {
		return append(b, reloadScript...)
	}
	out := make([]byte, 0, len(b)+len(reloadScript))
	out = append(out, b[:i]...)
	out = append(out, reloadScript...)
	return append(out, b[i:]...)
}
