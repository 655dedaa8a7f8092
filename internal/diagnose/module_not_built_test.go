package diagnose

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/kconfig"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// rm is the repository's own matrix: the BCM57414 entry and the
// kernel_option rows the check reads are there, not in the test matrix.
func rm(t *testing.T) *matrix.Matrix { return hosttest.Bundled(t) }

// talosBCM57414 is the host of siderolabs/pkgs#1557: a BCM57414
// (14e4:16d7) driven by bnxt_en, with bnxt_en and ib_core loaded
// ("talosctl ls /sys/module | grep -E 'bnxt|ib_'") and no RDMA device. The
// PCI address is a placeholder; the issue gives none. Its kernel
// configuration is the capture named, as the source's filter says.
func talosBCM57414(t *testing.T, capture, filter string) func() *record.Host {
	return func() *record.Host {
		h := &record.Host{Schema: record.Schema, Host: record.HostInfo{ID: "talos"}}
		h.Adapters = []record.Adapter{{PCIAddress: "0000:01:00.0", Vendor: "14e4", Device: "16d7", Driver: record.Driver{Name: "bnxt_en"}}}
		h.Modules = []record.Module{{Name: "bnxt_en"}, {Name: "ib_core"}}
		h.Sources = []record.Source{{ID: string(source.SysModule), Status: record.StatusOK, Filter: "grep -E 'bnxt|ib_'"}}
		if capture != "" {
			cfgs, err := kconfig.Parse(bytes.NewReader(capturetest.Read(t, "kconfig", capture)))
			if err != nil || len(cfgs) != 1 {
				t.Fatal(err, len(cfgs))
			}
			kc := &record.KernelConfig{Source: string(source.ProcConfigGz)}
			for _, o := range cfgs[0].Options {
				if kconfig.Relevant(o.Name) {
					kc.Options = append(kc.Options, record.KernelOption{Name: o.Name, Value: o.Value, Line: o.Line})
				}
			}
			h.KernelConfig = kc
			h.Sources = append(h.Sources, record.Source{ID: kc.Source, Status: record.StatusOK, Filter: filter})
		}
		return h
	}
}

// module-not-built on real configurations: Talos's "# CONFIG_INFINIBAND_BNXT_RE
// is not set" (siderolabs/pkgs#1557), RHEL 7.4's configuration with no
// CONFIG_INFINIBAND_BNXT_RE line at all (grepped so that it would show
// one), openEuler's arm64 configuration that builds bnxt_re, and a grep
// that could not have shown the line.
func TestModuleNotBuilt(t *testing.T) {
	t.Parallel()
	runCasesWith(t, rm(t), "module-not-built", []checkCase{
		{"Talos: bnxt_re is not set", talosBCM57414(t, "talos-1.12-config-arm64-bnxt-re-not-set.txt", "grep -E 'BNXT'"), Found, Error, "0000:01:00.0"},
		{"RHEL 7.4: no bnxt_re line, grep would show it", talosBCM57414(t, "rhel-7.4-x86_64-grep-no-bnxt-re-line.txt", "grep -E 'INFINIBAND|CONFIG_BNXT'"), Found, Error, "0000:01:00.0"},
		{"openEuler: bnxt_re=m", talosBCM57414(t, "openeuler-5.10-arm64-hns-bnxt-re-built.txt", ""), Pass, "", ""},
		{"no bnxt_re line, but pasted through a grep that would not show one", talosBCM57414(t, "rhel-7.4-x86_64-grep-no-bnxt-re-line.txt", "grep -i infiniband | grep -v BNXT"), Unknown, "", ""},
		{"no configuration", talosBCM57414(t, "", ""), Unknown, "", ""},
	})
}

// module-not-loaded counts a module built into the kernel (=y) as present:
// it is never in lsmod.
func TestModuleNotLoadedBuiltIn(t *testing.T) {
	t.Parallel()
	builtin := func() *record.Host {
		h := talosBCM57414(t, "openeuler-5.10-arm64-hns-bnxt-re-built.txt", "")()
		h.Modules = []record.Module{{Name: "bnxt_en"}, {Name: "bnxt_re"}}
		h.Sources[0].Filter = ""
		for i, o := range h.KernelConfig.Options {
			if o.Name == "CONFIG_INFINIBAND" {
				h.KernelConfig.Options[i].Value = kconfig.BuiltIn // as a kernel with InfiniBand built in has it
			}
		}
		return h
	}
	module := func() *record.Host {
		h := builtin()
		h.KernelConfig = nil
		return h
	}
	runCasesWith(t, rm(t), "module-not-loaded", []checkCase{
		{"ib_core built in", builtin, Pass, "", ""},
		{"ib_core missing from lsmod, no configuration", module, Found, Warning, "0000:01:00.0"},
	})
}

// module-not-loaded's fix says the kernel does not build the module when
// its own configuration says so, not "modprobe it" (Talos, #1557).
func TestModuleNotLoadedFixNotBuilt(t *testing.T) {
	t.Parallel()
	h := talosBCM57414(t, "talos-1.12-config-arm64-bnxt-re-not-set.txt", "grep -E 'BNXT'")()
	c, _ := Lookup("module-not-loaded")
	res := c.Run(h, rm(t))
	if len(res.Findings) != 1 {
		t.Fatalf("findings %+v, want one", res.Findings)
	}
	if fix := res.Findings[0].Fix; !strings.Contains(fix, "This kernel does not build bnxt_re") {
		t.Errorf("fix %q, want it to say this kernel does not build bnxt_re", fix)
	}
}
