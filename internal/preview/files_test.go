package preview

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSite writes files (path → content) under a new folder and returns it.
func writeSite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestServeFiles: folders serve their index.html or 404, never a listing;
// dot files are hidden; a missing page serves 404.html with status 404;
// HTML gets the reload script as served, other files come as they are.
func TestServeFiles(t *testing.T) {
	t.Parallel()
	dir := writeSite(t, map[string]string{
		"index.html":      "<html><body><h1>Home</h1></body></html>",
		"404.html":        "<html><body><h1>Not here</h1></body></html>",
		".kbgen-output":   "written by kbgen",
		"host/index.html": "<html><body><h1>Hosts</h1></body></html>",
		"host/.hidden":    "secret",
		"search/s/0.js":   "shard0",
		"style.css":       "body{color:red}",
		"bare.html":       "<p>no body element</p>",
	})
	srv, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, tc := range []struct {
		method, path string
		status       int
		want, not    string // in the body, or "" for no check
		header       string // "Key: value" expected, or ""
	}{
		{"GET", "/", 200, "<h1>Home</h1>" + reloadScript + "</body>", "", "Content-Type: text/html; charset=utf-8"},
		{"GET", "/host/", 200, "<h1>Hosts</h1>", "", ""},
		{"GET", "/host", 301, "", "", "Location: /host/"},
		{"GET", "/search/s/", 404, "Not here", "0.js", ""},
		{"GET", "/.kbgen-output", 404, "Not here", "written by kbgen", ""},
		{"GET", "/host/.hidden", 404, "Not here", "secret", ""},
		{"GET", "/host/../.kbgen-output", 404, "Not here", "written by kbgen", ""},
		{"GET", "/no/such/page.html", 404, "Not here</h1>" + reloadScript, "", ""},
		{"GET", "/style.css", 200, "body{color:red}", "EventSource", "Cache-Control: no-cache"},
		{"GET", "/bare.html", 200, "<p>no body element</p>" + reloadScript, "", ""},
		{"GET", "/favicon.ico", 204, "", "", ""},
		{"HEAD", "/", 200, "", "Home", ""},
		{"POST", "/", 405, "", "", "Allow: GET, HEAD"},
		{"GET", "/api/search?q=x", 503, `{"error":"no search index`, "", "Content-Type: application/json; charset=utf-8"},
	} {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		body, _ := io.ReadAll(w.Result().Body)
		if w.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, w.Code, tc.status)
		}
		if tc.want != "" && !strings.Contains(string(body), tc.want) {
			t.Errorf("%s %s: body lacks %q:\n%s", tc.method, tc.path, tc.want, body)
		}
		if tc.not != "" && strings.Contains(string(body), tc.not) {
			t.Errorf("%s %s: body has %q:\n%s", tc.method, tc.path, tc.not, body)
		}
		if k, v, ok := strings.Cut(tc.header, ": "); ok && w.Header().Get(k) != v {
			t.Errorf("%s %s: %s %q, want %q", tc.method, tc.path, k, w.Header().Get(k), v)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); strings.Contains(string(b), "EventSource") {
		t.Errorf("serving wrote the reload script into the built file")
	}
}

// TestNotFoundWithoutPage: a site without 404.html still answers 404.
func TestNotFoundWithoutPage(t *testing.T) {
	t.Parallel()
	srv, err := New(Options{Dir: writeSite(t, map[string]string{"index.html": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", "/gone.html", nil))
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "404 page not found") {
		t.Errorf("status %d, body %q", w.Code, w.Body.String())
	}
}

// TestNotFoundAllowsItsRootScript: 404.html is served at any depth and
// finds the site root with one inline script that writes a <base>; the
// page's policy lets that script (by its hash) and a same-origin <base>
// through, and nothing else inline. Other pages keep the strict policy.
func TestNotFoundAllowsItsRootScript(t *testing.T) {
	t.Parallel()
	script := `document.write('<base href="/">')`
	srv, err := New(Options{Dir: writeSite(t, map[string]string{
		"index.html": "<html><head></head><body>home</body></html>",
		"404.html":   "<html><head><script>" + script + "</script></head><body><script>evil()</script></body></html>",
	})})
	if err != nil {
		t.Fatal(err)
	}
	get := func(p string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", p, nil))
		return w
	}
	sum := sha256.Sum256([]byte(script))
	want := "script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "';"
	w := get("/adapter/connectx-55.html")
	if c := w.Header().Get("Content-Security-Policy"); w.Code != 404 || !strings.Contains(c, want) || !strings.Contains(c, "base-uri 'self'") || strings.Contains(c, "unsafe-inline") {
		t.Errorf("404 at depth: status %d, policy %q, want %q and base-uri 'self'", w.Code, c, want)
	}
	if c := get("/").Header().Get("Content-Security-Policy"); c != csp {
		t.Errorf("home page policy %q, want the strict one", c)
	}
}
