package scripttest

import (
	"os"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestSetupGivesTheProcessValues: a script that starts while another's
// program runs copies that script's values from the process; Setup gives
// it the values the process had when Setup was made, and unsets those it
// had none of.
func TestSetupGivesTheProcessValues(t *testing.T) {
	t.Setenv("SCRIPTTEST_SET", "own")
	os.Unsetenv("SCRIPTTEST_UNSET")
	setup := Setup(map[string]Program{"p": {Env: []string{"SCRIPTTEST_SET", "SCRIPTTEST_UNSET"}}})
	// As testscript copies the process's environment while another
	// script's program runs.
	env := &testscript.Env{Vars: []string{"HOME=/h", "SCRIPTTEST_SET=other", "SCRIPTTEST_UNSET=other"}}
	if err := setup(env); err != nil {
		t.Fatal(err)
	}
	slices.Sort(env.Vars)
	if want := []string{"HOME=/h", "SCRIPTTEST_SET=own"}; !slices.Equal(env.Vars, want) {
		t.Errorf("Vars %q, want %q", env.Vars, want)
	}
}
