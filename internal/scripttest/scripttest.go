package scripttest

import (
	"errors"
	"net"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// FreeAddr returns a loopback address with a port free now, for a server a
// script starts in the background ($ADDR).
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Cmds returns the shared commands:
//
//	exitcode N prog args...   run prog and require exit status N; stdout
//	                          and stderr are kept for later assertions.
//	get [-status N] URL       fetch URL (waiting for a background server to
//	                          listen) and require status N (200); the body
//	                          is stdout, the Content-Type stderr.
func Cmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"exitcode": exitcode,
		"get":      get,
	}
}

func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
