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
//	                          A program of progs (by name) runs in the
//	                          test process (Program), without standard
//	                          input: "exitcode N exec prog args..."
//	                          executes it as any other prog.
//	get [-status N] URL       fetch URL (waiting for a background server to
//	                          listen) and require status N (200); the body
//	                          is stdout, the Content-Type stderr.
func Cmds(progs map[string]Program) map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"exitcode": func(ts *testscript.TestScript, neg bool, args []string) { exitcode(ts, progs, neg, args) },
		"get":      get,
	}
}

func exitcode(ts *testscript.TestScript, progs map[string]Program, neg bool, args []string) {
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
	prog, args := args[1], args[2:]
	if prog == "exec" && len(args) > 0 {
		prog, args, progs = args[0], args[1:], nil
	}
	if got := status(ts, progs, prog, args); got != want {
		ts.Fatalf("%s exited %d, want %d", prog, got, want)
	}
}

// exitCode is the exit status of a command that ran and failed.
func exitCode(err error) (int, bool) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	return ee.ExitCode(), true
}
