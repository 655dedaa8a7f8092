package compat

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// FuzzDiagnose: whatever record decodes, every check, the fleet summary
// and a tree walk finish without panicking, and the report agrees with
// its findings.
func FuzzDiagnose(f *testing.F) {
	for _, h := range []*record.Host{healthy(), cisco()} {
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
	m, err := testMatrix()
	if err != nil {
		f.Fatal(err)
	}
	tree := fuzzTree()
	f.Fuzz(func(t *testing.T, src []byte) {
		h, _ := record.Decode("fuzz.toml", src)
		if h == nil {
			return
		}
		rep := Diagnose(m, nil, h)
		if rep.Errors+rep.Warnings+rep.Infos != len(rep.Findings) {
			t.Fatalf("counts %d+%d+%d != %d findings", rep.Errors, rep.Warnings, rep.Infos, len(rep.Findings))
		}
		Summarize(m, []*Report{rep, rep})
		WalkTree(m, tree, h)
	})
}

func BenchmarkDiagnose(b *testing.B) {
	m, err := testMatrix()
	if err != nil {
		b.Fatal(err)
	}
	hosts := []*record.Host{healthy(), cisco()}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Diagnose(m, nil, hosts[i%2])
	}
}
