package content

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestLintChecksOption: the engine's ids, passed in through LintOptions,
// replace the fallback list.
func TestLintChecksOption(t *testing.T) {
	t.Parallel()
	c, probs := Load(fstest.MapFS{"trees/t.toml": {Data: []byte(goodTree)}}, "content")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	if got := Lint(c, LintOptions{}); strings.Contains(got.String(), "unknown check") {
		t.Errorf("fallback list rejects no-active-port:\n%s", got)
	}
	got := Lint(c, LintOptions{Checks: []string{"adapter-unknown"}})
	if !strings.Contains(got.String(), `unknown check "no-active-port"`) {
		t.Errorf("engine ids not used:\n%s", got)
	}
}
