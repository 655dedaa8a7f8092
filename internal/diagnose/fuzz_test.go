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

// FuzzDiagnoseFields fuzzes the values the checks judge (ids, versions,
// names, states) in a healthy host, rather than a record's TOML: each
// input is a few short strings, so the fuzzer explores the engine instead
// of minimising kilobytes of TOML (FuzzDiagnose ran 6-11 inputs in 20 s).
// The record's decoding is fuzzed by record's own target.
func FuzzDiagnoseFields(f *testing.F) {
	f.Add("15b3", "1017", "16.35.2000", "mlx5_core", "", "5.14.0-427.13.1.el9_4.x86_64", "rhel", "9.4", "ACTIVE", "Ethernet", "RoCE v2", uint8(2))
	f.Add("1137", "0043", "5.1(2a)", "enic", "4.0.0.10-802.34", "4.18.0-553.el8_10.x86_64", "rocky", "8.10", "DOWN", "InfiniBand", "IB/RoCE v1", uint8(0))
	f.Add("14e4", "1750", "", "bnxt_en", "1.10.2-227.0.130.0", "6.8.0-45-generic", "ubuntu", "24.04", "INIT", "", "", uint8(255))
	f.Add("8086", "1592", "0x800085cc", "ice", "1.14.9", "5.1.0-rc7-next-20190430+", "sles", "15.5", "", "Ethernet", "RoCE v1", uint8(1))
	m, err := hosttest.LoadMatrix()
	if err != nil {
		f.Fatal(err)
	}
	tree := hosttest.Tree()
	f.Fuzz(func(t *testing.T, vendor, device, fw, driver, driverVersion, kernel, osID, osVersion, state, linkLayer, mode string, gids uint8) {
		h := hosttest.Healthy()
		a, p := &h.Adapters[0], &h.Devices[0].Ports[0]
		a.Vendor, a.Device, a.Firmware.Running, a.Firmware.Stored = vendor, device, fw, fw
		a.Driver.Name, a.Driver.Version = driver, driverVersion
		h.Host.KernelRelease, h.Host.OS.ID, h.Host.OS.VersionID = kernel, osID, osVersion
		p.State, p.LinkLayer, p.DefaultRoCEMode = state, linkLayer, mode
		p.GIDCounts.RoCEv2 = int(gids)
		if len(record.Validate(h)) > 0 {
			return // a record the loader refuses never reaches the engine
		}
		rep := diagnose.Diagnose(m, nil, h)
		if rep.Errors+rep.Warnings+rep.Infos != len(rep.Findings) {
			t.Fatalf("counts %d+%d+%d != %d findings", rep.Errors, rep.Warnings, rep.Infos, len(rep.Findings))
		}
		fleet.Summarize(m, []*diagnose.Report{rep, rep})
		treewalk.Tree(tree, rep)
	})
}
