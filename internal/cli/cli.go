package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/suggest"
)

// Exit codes, the same for both binaries.
const (
	OK       = 0 // success, and no findings at or above the threshold
	Failure  = 1 // the run failed, or it found what it was asked to fail on
	BadInput = 2 // usage error, or input that could not be read or parsed
)

// ExitCodesHelp is appended to every kbgen command's long help; kbcollect
// has its own, as it never judges findings.
const ExitCodesHelp = `
Exit status:
  0  success
  1  failure (for kbgen lint: errors; for kbgen check: findings at or above --fail-on)
  2  usage error, or input that could not be read or parsed`

// Error carries an exit code with an error.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Usage marks err as a usage or input error (exit 2).
func Usage(err error) error { return &Error{Code: BadInput, Err: err} }

// Usagef formats a usage or input error (exit 2).
func Usagef(format string, args ...any) error { return Usage(fmt.Errorf(format, args...)) }

// Fail marks err as a failure (exit 1).
func Fail(err error) error { return &Error{Code: Failure, Err: err} }

// Silent is an exit code with nothing left to print: the command already
// reported what went wrong.
func Silent(code int) error { return &Error{Code: code, Err: errSilent} }

var errSilent = errors.New("")

// Execute runs a cobra root command and maps its error to an exit code,
// printing the error once, without a stack trace or usage dump.
func Execute(root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SilenceErrors = true
	root.SilenceUsage = true
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return Usagef("%v%s\nRun '%s --help' for usage.", err, flagSuggestion(c, err.Error()), c.CommandPath())
	})
	err := root.Execute()
	if err == nil {
		return OK
	}
	code := Failure
	var ce *Error
	if errors.As(err, &ce) {
		code = ce.Code
		if errors.Is(ce.Err, errSilent) {
			return code
		}
	} else if isCobraUsage(err) {
		code = BadInput
	}
	if list, ok := diag.AsList(err); ok {
		fmt.Fprint(stderr, list.String())
		return code
	}
	fmt.Fprintf(stderr, "%s: %v\n", root.Name(), err)
	return code
}

// isCobraUsage recognises cobra's own argument and flag group errors, which
// it does not type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "invalid argument", "unknown flag", "unknown shorthand", "if any flags in the group", "at least one of the flags in the group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// Version reports the module version and VCS revision from build info.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
			if len(rev) > 12 {
				rev = rev[:12]
			}
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v + " " + bi.GoVersion
}

// Completion adds the standard `completion bash|zsh|fish` command.
func Completion(root *cobra.Command) {
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(&cobra.Command{
		Use:       "completion bash|zsh|fish",
		Short:     "Print a shell completion script",
		Long:      "Print a shell completion script.\n\nbash:  source <(" + root.Name() + " completion bash)\nzsh:   " + root.Name() + " completion zsh > \"${fpath[1]}/_" + root.Name() + "\"\nfish:  " + root.Name() + " completion fish | source",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"bash", "zsh", "fish"},
		RunE: func(c *cobra.Command, args []string) error {
			out := c.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			}
			return Usagef("unknown shell %q (want bash, zsh or fish)", args[0])
		},
	})
}

// flagSuggestion is "; did you mean --adapter?" for an unknown flag close
// to one of the command's own (a typo such as --adpter), else "".
func flagSuggestion(c *cobra.Command, msg string) string {
	const pre = "unknown flag: --"
	i := strings.Index(msg, pre)
	if i < 0 {
		return ""
	}
	name := strings.SplitN(msg[i+len(pre):], "=", 2)[0]
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if best := suggest.Closest(name, names, 1); len(best) > 0 {
		return "; did you mean --" + best[0] + "?"
	}
	return ""
}
