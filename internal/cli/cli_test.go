package cli

import (
	"bytes"
	"errors"
	"testing"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/diag"
)

func TestExecuteExitCodes(t *testing.T) {
	t.Parallel()
	var list diag.List
	list.Add("m.toml", diag.Pos{Line: 2, Col: 3}, "unknown key %q", "x")
	for _, tc := range []struct {
		name   string
		args   []string
		err    error
		code   int
		stderr string
	}{
		{"ok", nil, nil, OK, ""},
		{"plain error is a failure", nil, errors.New("boom"), Failure, "t: boom\n"},
		{"usage", nil, Usagef("bad %s", "input"), BadInput, "t: bad input\n"},
		{"problems print once, positioned", nil, Usage(list.Err()), BadInput, "m.toml:2:3: unknown key \"x\"\n"},
		{"silent", nil, Silent(Failure), Failure, ""},
		{"unknown flag", []string{"--nope"}, nil, BadInput, "t: unknown flag: --nope\nRun 't --help' for usage.\n"},
		{"extra args", []string{"a"}, nil, BadInput, "t: unknown command \"a\" for \"t\"\n"},
		{"flags that exclude each other", []string{"--a=1", "--b=2"}, nil, BadInput, "t: if any flags in the group [a b] are set none of the others can be; [a b] were all set\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &cobra.Command{Use: "t", Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return tc.err }}
			c.Flags().String("a", "", "")
			c.Flags().String("b", "", "")
			c.MarkFlagsMutuallyExclusive("a", "b")
			var out, errb bytes.Buffer
			if got := Execute(c, tc.args, nil, &out, &errb); got != tc.code {
				t.Errorf("exit %d, want %d", got, tc.code)
			}
			if errb.String() != tc.stderr {
				t.Errorf("stderr %q, want %q", errb.String(), tc.stderr)
			}
		})
	}
}
