package preview

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
)

// serveFile serves a file of the site: a folder its index.html (never a
// listing), a missing file or any dot file (the build's marker) 404.html.
// The folder is opened as an os.Root for each request (a build swaps in a
// new folder under the same name): a link in it is followed only to a
// file inside it, never to /etc/passwd.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	root, err := os.OpenRoot(s.opts.Dir)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	defer root.Close()
	upath := path.Clean("/" + r.URL.Path)
	for _, seg := range strings.Split(upath, "/") {
		if strings.HasPrefix(seg, ".") {
			s.notFound(w, r, root)
			return
		}
	}
	name := strings.TrimPrefix(upath, "/")
	if name == "" {
		name = "."
	}
	fi, err := root.Stat(name)
	if err == nil && fi.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Pages link relatively: adapter/ must end in a slash for
			// adapter/index.html's links to resolve.
			http.Redirect(w, r, path.Base(upath)+"/", http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		fi, err = root.Stat(name)
	}
	if err != nil || !fi.Mode().IsRegular() {
		if upath == "/favicon.ico" {
			// Browsers ask for it unasked; a site without one gets no error.
			w.WriteHeader(http.StatusNoContent)
			return
		}
		s.notFound(w, r, root)
		return
	}
	send(w, r, root, name, fi, http.StatusOK, s.banner())
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request, root *os.Root) {
	name := page.Path(page.NotFound, "")
	fi, err := root.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	// 404.html is served at any depth: its one inline script finds the
	// site root from the address and writes a <base> before the styles
	// load. That script alone is let through, by its hash.
	if b, err := root.ReadFile(name); err == nil {
		if sum, ok := inlineScriptHash(b); ok {
			w.Header().Set("Content-Security-Policy", strings.Replace(strings.Replace(csp,
				"script-src 'self'", "script-src 'self' '"+sum+"'", 1), "base-uri 'none'", "base-uri 'self'", 1))
		}
	}
	send(w, r, root, name, fi, http.StatusNotFound, s.banner())
}

// inlineScriptHash is the CSP source ('sha256-…') of the first inline
// <script> of a page's head, if it has one.
func inlineScriptHash(b []byte) (string, bool) {
	head, _, _ := bytes.Cut(b, []byte("</head>"))
	_, rest, ok := bytes.Cut(head, []byte("<script>"))
	if !ok {
		return "", false
	}
	body, _, ok := bytes.Cut(rest, []byte("</script>"))
	if !ok {
		return "", false
	}
	sum := sha256.Sum256(body)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:]), true
}

// banner is the notice served pages carry while the last rebuild failed:
// the build's own message, with its file:line:col, above the page.
func (s *Server) banner() []byte {
	msg := s.failed.Load()
	if msg == nil {
		return nil
	}
	return []byte(`<div class="kb-build-error" role="alert"><p><strong>The last edit did not build.</strong> ` +
		`This is the previous site; the page reloads when an edit fixes it.</p><pre>` + html.EscapeString(*msg) + `</pre></div>`)
}

// send writes a file of root; HTML gets the reload script before </body>,
// and a banner (a failed rebuild's message) after <body>.
func send(w http.ResponseWriter, r *http.Request, root *os.Root, name string, fi fs.FileInfo, status int, banner []byte) {
	w.Header().Set("Cache-Control", "no-cache")
	f, err := root.Open(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	if !strings.HasSuffix(name, ".html") {
		http.ServeContent(w, r, name, fi.ModTime(), f)
		return
	}
	b, err := io.ReadAll(f)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	b = injectReload(b)
	if banner != nil {
		b = injectBanner(b, banner)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// injectBanner puts banner first in the page's body (or first in the
// page, when it has no <body> tag).
func injectBanner(b, banner []byte) []byte {
	i := bytes.Index(b, []byte("<body"))
	if i >= 0 {
		if j := bytes.IndexByte(b[i:], '>'); j >= 0 {
			i += j + 1
		}
	} else {
		i = 0
	}
	out := make([]byte, 0, len(b)+len(banner))
	out = append(out, b[:i]...)
	out = append(out, banner...)
	return append(out, b[i:]...)
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
