package diagnose

import (
	"testing"

	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// The fixtures are shared with the fleet, treewalk and verdict tests.
var (
	testMatrix  = hosttest.LoadMatrix
	healthy     = hosttest.Healthy
	cisco       = hosttest.Cisco
	with        = hosttest.With
	golden      = hosttest.Golden
	testContent = hosttest.Content
	fuzzTree    = hosttest.Tree
)

func tm(t *testing.T) *matrix.Matrix { t.Helper(); return hosttest.Matrix(t) }

func ptr[T any](v T) *T { return &v }

type checkCase struct {
	name    string
	host    func() *record.Host
	status  Status
	sev     Severity // worst severity when status is Found
	subject string   // subject of the first finding, when status is Found
}

func runCases(t *testing.T, id string, cases []checkCase) {
	t.Helper()
	m := tm(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, ok := Evaluate(m, c.host(), id)
			if !ok {
				t.Fatalf("no check %q", id)
			}
			if r.Status != c.status {
				t.Fatalf("status = %s, want %s; findings %+v notes %+v", r.Status, c.status, r.Findings, r.Notes)
			}
			if c.status != Found {
				return
			}
			f := r.Findings[0]
			if f.Severity != c.sev || f.Subject != c.subject {
				t.Errorf("finding %s %s, want %s %s: %s", f.Severity, f.Subject, c.sev, c.subject, f.Message)
			}
			if f.Check != id || f.Message == "" || f.Explanation == "" || f.Fix == "" || len(f.Evidence) == 0 {
				t.Errorf("finding is missing parts: %+v", f)
			}
		})
	}
}
