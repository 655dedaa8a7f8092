package diagnose_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/fleet"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/treewalk"
)

// FuzzDiagnose: whatever record decodes, every check, the fleet summary
// and a tree walk finish without panicking, and the report agrees with
// its findings.
func FuzzDiagnose(f *testing.F) {
	for _, h := range []*record.Host{hosttest.Healthy(), hosttest.Cisco()} {
		var b bytes.Buffer
		if err := record.Encode(&b, h, "toml"); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	// One small golden seeds real collector output; the larger ones make
	// the fuzzer spend its time minimising rather than exploring.
	if src, err := os.ReadFile(filepath.FromSlash("../../testdata/hosts/bnxt_re-port-disabled.golden.toml")); err == nil && len(src) < 8<<10 {
		f.Add(src)
	}
	m, err := hosttest.LoadMatrix()
	if err != nil {
		f.Fatal(err)
	}
	tree := hosttest.Tree()
	f.Fuzz(func(t *testing.T, src []byte) {
		h, _ := record.Decode("fuzz.toml", src)
		if h == nil {
			return
		}
		rep := diagnose.Diagnose(m, nil, h)
		if rep.Errors+rep.Warnings+rep.Infos != len(rep.Findings) {
			t.Fatalf("counts %d+%d+%d != %d findings", rep.Errors, rep.Warnings, rep.Infos, len(rep.Findings))
		}
		fleet.Summarize(m, []*diagnose.Report{rep, rep})
		treewalk.Tree(tree, rep)
	})
}

func BenchmarkDiagnose(b *testing.B) {
	m, err := hosttest.LoadMatrix()
	if err != nil {
		b.Fatal(err)
	}
	hosts := []*record.Host{hosttest.Healthy(), hosttest.Cisco()}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		diagnose.Diagnose(m, nil, hosts[i%2])
	}
}
