package preview

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, method, url, host string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestServeHardening: every answer carries nosniff, a CSP without inline
// script and frame-ancestors 'none'; only GET and HEAD are answered, the
// reload stream and the search API included; a Host that is not the
// listener's (DNS rebinding) is refused; a link out of the folder is not
// followed, a link inside it is.
func TestServeHardening(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "passwd")
	os.WriteFile(outside, []byte("root:x:0:0"), 0o644)
	dir := writeSite(t, map[string]string{
		"index.html": "<html><body>home</body></html>",
		"404.html":   "<html><body>not here</body></html>",
		"real.txt":   "inside",
	})
	os.Symlink(outside, filepath.Join(dir, "evil.txt"))
	os.Symlink("../../../../../../../../.."+outside, filepath.Join(dir, "evil2.txt"))
	os.Symlink("real.txt", filepath.Join(dir, "alias.txt"))
	srv, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, srv)
	base := "http://" + addr
	_, port, _ := net.SplitHostPort(addr)

	resp := get(t, "GET", base+"/", "")
	if resp.StatusCode != 200 {
		t.Fatalf("GET / = %d", resp.StatusCode)
	}
	h := resp.Header
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers %v", h)
	}
	c := h.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(c, want) {
			t.Errorf("CSP %q lacks %q", c, want)
		}
	}
	if strings.Contains(c, "unsafe-inline") {
		t.Errorf("CSP allows inline script or style: %q", c)
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS"} {
		for _, p := range []string{"/", ReloadPath, "/api/search?q=x"} {
			if r := get(t, m, base+p, ""); r.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s = %d, want 405", m, p, r.StatusCode)
			}
		}
	}
	for host, want := range map[string]int{
		"localhost:" + port:        200,
		"127.0.0.1:" + port:        200,
		"LOCALHOST:" + port:        200,
		"evil.example:" + port:     http.StatusMisdirectedRequest,
		"rebind.attacker.test":     http.StatusMisdirectedRequest,
		"127.0.0.1.nip.io:" + port: http.StatusMisdirectedRequest,
		"10.0.0.1:" + port:         http.StatusMisdirectedRequest,
	} {
		if r := get(t, "GET", base+"/", host); r.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, r.StatusCode, want)
		}
	}
	for p, want := range map[string]int{"/evil.txt": 404, "/evil2.txt": 404, "/alias.txt": 200, "/real.txt": 200} {
		if r := get(t, "GET", base+p, ""); r.StatusCode != want {
			t.Errorf("GET %s = %d, want %d", p, r.StatusCode, want)
		}
	}
	// The reload script is a file the CSP allows, not an inline script.
	page, _ := http.Get(base + "/")
	b, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if !strings.Contains(string(b), `<script src="`+reloadJSPath+`"></script>`) || strings.Contains(string(b), "<script>") {
		t.Errorf("page as served:\n%s", b)
	}
	if r := get(t, "GET", base+reloadJSPath, ""); r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("GET %s = %d %s", reloadJSPath, r.StatusCode, r.Header.Get("Content-Type"))
	}
}

// TestServeCapsReloadStreams: streams beyond the cap are refused (503),
// and one closing makes room.
func TestServeCapsReloadStreams(t *testing.T) {
	t.Parallel()
	srv, err := New(Options{Dir: writeSite(t, map[string]string{"index.html": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	srv.reload.max = 3
	addr := serve(t, srv)
	var open []*http.Response
	for range 3 {
		resp, err := http.Get("http://" + addr + ReloadPath)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("stream: %v %v", resp, err)
		}
		bufio.NewReader(resp.Body).ReadString('\n')
		open = append(open, resp)
	}
	if r := get(t, "GET", "http://"+addr+ReloadPath, ""); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a fourth stream: %d, want 503", r.StatusCode)
	}
	open[0].Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + ReloadPath)
		if err == nil && resp.StatusCode == 200 {
			resp.Body.Close()
			break
		}
		if err == nil {
			resp.Body.Close()
		}
		if time.Now().After(deadline) {
			t.Fatal("no room after a stream closed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, r := range open[1:] {
		r.Body.Close()
	}
}

// TestServeCutsSlowClients: a client that sends its header a byte at a
// time (slowloris) is cut off after the header timeout.
func TestServeCutsSlowClients(t *testing.T) {
	t.Parallel()
	srv, err := New(Options{Dir: writeSite(t, map[string]string{"index.html": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	srv.timeouts = timeouts{readHeader: 200 * time.Millisecond, read: time.Second, write: time.Second, idle: time.Second}
	addr := serve(t, srv)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	conn.Write([]byte("GET / HTTP/1.1\r\nHost: localhost\r\n"))
	for time.Since(start) < 5*time.Second {
		if _, err := conn.Write([]byte("X")); err != nil {
			break
		}
		conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := conn.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
			break // closed by the server
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a slow client held its connection %s", d)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func TestAllowedHostsAndLoopback(t *testing.T) {
	t.Parallel()
	any := allowedHosts(&net.TCPAddr{IP: net.IPv4zero, Port: 80})
	if !any.allow("192.168.1.5:80") || !any.allow("[fe80::1]:80") || any.allow("rebind.attacker.test:80") {
		t.Errorf("listening on every address: IP literals only (and this host's name)")
	}
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:8080": true, "[::1]:80": true, "0.0.0.0:8080": false, ":8080": false, "192.168.1.5:80": false} {
		if Loopback(addr) != want {
			t.Errorf("Loopback(%s) = %v", addr, !want)
		}
	}
}
