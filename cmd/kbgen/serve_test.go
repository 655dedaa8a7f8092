package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rocekb/rocekb/internal/dirtest"
	"github.com/rocekb/rocekb/internal/preview"
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

// startServe runs kbgen serve with args until the test ends and returns
// its address and output.
func startServe(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	o := &serveOptions{ready: func(a string) { addrc <- a }}
	c := newServeCmdWith(o)
	out := &syncBuffer{}
	c.SetOut(out)
	c.SetErr(out)
	c.SetArgs(append(args, "--addr", "127.0.0.1:0"))
	done := make(chan struct{})
	var err error
	go func() { err = c.ExecuteContext(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	select {
	case a := <-addrc:
		return a, out
	case <-done:
		t.Fatalf("serve ended: %v\n%s", err, out)
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", out)
	}
	return "", nil
}

// serveFAQ is the one FAQ page of TestServeReloadsOnChange, citing the
// one source of the one-adapter matrix it is served with.
const serveFAQ = `+++
title = "RoCE v1 vs RoCE v2"
summary = "Two versions of RoCE."
sources = ["doc"]
last_verified = 2026-11-30
lang = "en"
+++

RoCE v2 runs over UDP/IP [doc].
`

// TestServeReloadsOnChange checks serve's wiring through the real build
// (internal/preview tests the server itself): a change to a content file
// rebuilds the site and sends a reload event to an open page; the page
// then serves the change, and the built file never holds the reload script.
// The knowledge base is one adapter and one FAQ page: the wiring does not
// depend on its size, and the bundled one cost two full builds.
//
// It is not parallel: serve reads kb.toml from the current folder at each
// rebuild, and the scripts' kbgen runs in the scripts' folders.
func TestServeReloadsOnChange(t *testing.T) {
	dir := t.TempDir()
	dirtest.Copy(t, "../../internal/build/testdata/matrix", filepath.Join(dir, "matrix"))
	os.MkdirAll(filepath.Join(dir, "content", "faq"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "content", "faq", "roce-v1-vs-v2.md"), []byte(serveFAQ), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	addr, log := startServe(t, "--matrix", filepath.Join(dir, "matrix"), "--content", filepath.Join(dir, "content"), "--out", out)

	resp, err := http.Get("http://" + addr + preview.ReloadPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	events := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			events <- sc.Text()
		}
		close(events)
	}()
	if l := <-events; !strings.HasPrefix(l, "retry:") {
		t.Fatalf("first line %q", l)
	}

	faq := filepath.Join(dir, "content", "faq", "roce-v1-vs-v2.md")
	src, err := os.ReadFile(faq)
	if err != nil {
		t.Fatal(err)
	}
	const marker = "Edited while serving, a sentence no page had."
	start := time.Now()
	if err := os.WriteFile(faq, append(src, []byte("\n"+marker+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(30 * time.Second)
	for got := false; !got; {
		select {
		case l, ok := <-events:
			if !ok {
				t.Fatalf("event stream ended\n%s", log)
			}
			got = l == "event: reload"
		case <-timeout:
			t.Fatalf("no reload event 30 s after the change\n%s", log)
		}
	}
	t.Logf("change → reload event: %s", time.Since(start))

	page, err := http.Get("http://" + addr + "/faq/roce-v1-vs-v2.html")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if !bytes.Contains(body, []byte(marker)) {
		t.Errorf("the served page lacks the change")
	}
	if !bytes.Contains(body, []byte(`<script src="/__reload.js"></script>`)) {
		t.Errorf("the served page lacks the reload script")
	}
	built, err := os.ReadFile(filepath.Join(out, "faq", "roce-v1-vs-v2.html"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(built, []byte("__reload")) || !bytes.Contains(built, []byte(marker)) {
		t.Errorf("built file: reload script %v, change %v", bytes.Contains(built, []byte("__reload")), bytes.Contains(built, []byte(marker)))
	}
	// The server prints the rebuild's time once the reload is sent (the
	// line counts the pages it reached), so the line may follow the event.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), "rebuilt: "); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no rebuild time printed 30 s after the reload event:\n%s", log)
		}
	}
}
