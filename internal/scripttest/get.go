package scripttest

import (
	"errors"
	"flag"
	"io"
	"net/http"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// get fetches a URL, waiting up to 20 s for a server started in the
// background to listen, and requires its status (200 unless -status N);
// the body goes to stdout, the Content-Type to stderr. Redirects are not
// followed, so they can be asserted.
func get(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! get; use get -status N")
	}
	fs := flag.NewFlagSet("get", flag.ContinueOnError)
	status := fs.Int("status", http.StatusOK, "expected status")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		ts.Fatalf("usage: get [-status N] URL")
	}
	url := fs.Arg(0)
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	deadline := time.Now().Add(2 * time.Minute) // a generous bound on a busy machine: the server builds the site first
	var resp *http.Response
	for {
		var err error
		resp, err = client.Get(url)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.ECONNREFUSED) || time.Now().After(deadline) {
			ts.Fatalf("get %s: %v", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.Fatalf("get %s: %v", url, err)
	}
	ts.Stdout().Write(body)
	io.WriteString(ts.Stderr(), resp.Header.Get("Content-Type")+"\n")
	if resp.StatusCode != *status {
		ts.Fatalf("get %s: status %d, want %d", url, resp.StatusCode, *status)
	}
}
