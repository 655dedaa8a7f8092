package scripttest

import (
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// Main is the body of a command's main function: it runs the command on
// args and returns the status main passes to os.Exit.
type Main func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Program is a command a script runs in the test process (see Cmds), which
// costs no process start: its Main, and the environment variables it
// reads, which it is given the script's values of (unset where the script
// has none). While it runs, the process has those values: a test gives
// its scripts Setup's, so that no script starts with another's.
type Program struct {
	Main Main
	Env  []string
}

// process guards what a program run in the test process shares with the
// rest of the process: its working folder and environment.
var process sync.Mutex

// Locked runs f while no program runs, in the test process's own folder:
// a test running beside the scripts reads a path relative to the current
// folder (one it names, or one a program reads by default) only inside it.
func Locked(f func()) {
	process.Lock()
	defer process.Unlock()
	f()
}

// Setup returns a testscript Setup that gives each script the process's
// own values of progs' Env variables, read now, while no program runs,
// and unsets those the process has none of. testscript copies the
// process's environment into a script as it starts, and while a program
// runs that environment holds the values of the script running it: a
// PATH with that script's fake tools first, in a folder removed when it
// ends.
func Setup(progs map[string]Program) func(*testscript.Env) error {
	process.Lock()
	defer process.Unlock()
	vars := map[string]*string{} // nil: unset
	for _, p := range progs {
		for _, k := range p.Env {
			vars[k] = nil
			if v, ok := os.LookupEnv(k); ok {
				vars[k] = &v
			}
		}
	}
	return func(env *testscript.Env) error {
		for k, v := range vars {
			env.Vars = slices.DeleteFunc(env.Vars, func(kv string) bool { return strings.HasPrefix(kv, k+"=") })
			if v != nil {
				env.Setenv(k, *v)
			}
		}
		return nil
	}
}

// run runs p on args as exec would run its binary: in the script's current
// folder, with the script's values of p.Env and no standard input, its
// standard output and error kept for the assertions that follow. It
// returns the exit status. Programs run one at a time, as the process has
// one working folder.
func (p Program) run(ts *testscript.TestScript, name string, args []string) int {
	process.Lock()
	defer process.Unlock()
	home, err := os.Getwd()
	ts.Check(err)
	ts.Check(os.Chdir(ts.MkAbs(".")))
	defer func() { ts.Check(os.Chdir(home)) }()
	for _, k := range p.Env {
		old, had := os.LookupEnv(k)
		if v := ts.Getenv(k); v != "" {
			ts.Check(os.Setenv(k, v))
		} else {
			ts.Check(os.Unsetenv(k))
		}
		if had {
			defer os.Setenv(k, old)
		} else {
			defer os.Unsetenv(k)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			ts.Fatalf("%s %s panicked: %v\n%s", name, strings.Join(args, " "), r, debug.Stack())
		}
	}()
	return p.Main(args, strings.NewReader(""), ts.Stdout(), ts.Stderr())
}

// status runs prog (a program of progs, or else a binary) and returns its
// exit status.
func status(ts *testscript.TestScript, progs map[string]Program, prog string, args []string) int {
	if p, ok := progs[prog]; ok {
		return p.run(ts, prog, args)
	}
	err := ts.Exec(prog, args...)
	if err == nil {
		return 0
	}
	code, ok := exitCode(err)
	if !ok {
		ts.Fatalf("exitcode: %v", err)
	}
	return code
}
