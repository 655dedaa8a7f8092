package preview

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rocekb/rocekb/internal/search"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve runs srv on a loopback port until the test ends.
func serve(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		srv.Close()
	})
	return ln.Addr().String()
}

// events opens the reload stream and returns its lines.
func events(t *testing.T, addr string) <-chan string {
	t.Helper()
	resp, err := http.Get("http://" + addr + ReloadPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	lines := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if l := <-lines; !strings.HasPrefix(l, "retry:") {
		t.Fatalf("first line %q", l)
	}
	return lines
}

// waitReload waits for a reload event and returns its id line.
func waitReload(t *testing.T, lines <-chan string, log *syncBuffer) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for reload := false; ; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("event stream ended\n%s", log)
			}
			if reload && strings.HasPrefix(l, "id: ") {
				return l
			}
			reload = reload || l == "event: reload"
		case <-timeout:
			t.Fatalf("no reload event 30 s after the change\n%s", log)
		}
	}
}

// TestRebuildReloads: a burst of changes to an input rebuilds once, after
// the debounce; the rebuild's own writes into the output folder (inside
// the watched input here) do not rebuild again; open pages get a reload
// event and then the new page, with the reload script added as served.
// A failed rebuild is reported and sends no reload. The burst's three
// writes must land within one quiet period even on a loaded machine, so
// the quiet period is longer here than the 50 ms default.
func TestRebuildReloads(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	in := filepath.Join(root, "content")
	out := filepath.Join(root, "public")
	for _, d := range []string{in, out} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(out, "index.html"), []byte("<body>old</body>"), 0o644)
	var builds atomic.Int64
	var fail atomic.Bool
	const quiet = 250 * time.Millisecond
	log := &syncBuffer{}
	srv, err := New(Options{
		Dir:    out,
		Inputs: []string{root, ""},
		Stdout: log, Stderr: log, Name: "kbgen", Debounce: quiet,
		Rebuild: func() ([]search.Doc, *search.Aliases, error) {
			builds.Add(1)
			if fail.Load() {
				return nil, nil, errors.New("content/a.md:1:1: broken")
			}
			b, _ := os.ReadFile(filepath.Join(in, "a.md"))
			err := os.WriteFile(filepath.Join(out, "index.html"), []byte("<body>"+string(b)+"</body>"), 0o644)
			return []search.Doc{{URL: "index.html", Title: string(b), Kind: "faq"}}, search.NewAliases(), err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if w := srv.Watching(); len(w) != 1 {
		t.Errorf("Watching() = %q, want the one input", w)
	}
	addr := serve(t, srv)
	lines := events(t, addr)

	for _, s := range []string{"draft", "draft two", "edited while serving"} {
		if err := os.WriteFile(filepath.Join(in, "a.md"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if id := waitReload(t, lines, log); id != "id: 1" {
		t.Errorf("first reload %q, want id: 1", id)
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "<body>edited while serving" + reloadScript + "</body>"; string(body) != want {
		t.Errorf("served page:\n%s\nwant:\n%s", body, want)
	}
	// The search API is reindexed after the reload is sent.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err = http.Get("http://" + addr + "/api/search?q=edited")
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), `"url":"index.html"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("search API 5 s after the rebuild: %s", body)
			break
		}
	}
	time.Sleep(4 * quiet) // room for a rebuild the output's writes would wrongly cause
	if n := builds.Load(); n != 1 {
		t.Errorf("%d rebuilds, want 1 for one burst of changes", n)
	}
	if s := log.String(); !strings.Contains(s, "rebuilt: ") || !strings.Contains(s, "reload sent to 1 open page(s)") {
		t.Errorf("no rebuild line:\n%s", s)
	}

	fail.Store(true)
	os.WriteFile(filepath.Join(in, "a.md"), []byte("broken"), 0o644)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(log.String(), "kbgen: rebuild failed, still serving the previous site: content/a.md:1:1: broken") {
		if time.Now().After(deadline) {
			t.Fatalf("no failure line:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A failed rebuild reloads open pages, which show its message
	// (file:line:col, escaped) above the previous site until an edit fixes it.
	if id := waitReload(t, lines, log); id == "" {
		t.Errorf("a failed rebuild sent no reload")
	}
	get := func() string {
		resp, err := http.Get("http://" + addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if page := get(); !strings.Contains(page, `<body><div class="kb-build-error" role="alert">`) ||
		!strings.Contains(page, "<pre>content/a.md:1:1: broken</pre>") || !strings.Contains(page, "edited while serving") {
		t.Errorf("page after a failed rebuild lacks the error banner over the previous site:\n%s", page)
	}
	fail.Store(false)
	os.WriteFile(filepath.Join(in, "a.md"), []byte("fixed"), 0o644)
	waitReload(t, lines, log)
	if page := get(); strings.Contains(page, "kb-build-error") || !strings.Contains(page, "fixed") {
		t.Errorf("page after the fix still shows the banner or the old site:\n%s", page)
	}
}
