package diagnose

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/modprobe"
	"github.com/rocekb/rocekb/internal/record"
)

// blockedBy gives a host the rules of a real capture as collect keeps them:
// its modprobe.d file read from the snapshot path id (or the kernel
// command line when id is proc/cmdline), rules naming other modules
// dropped.
func blockedBy(t *testing.T, tool, name, id string) func(h *record.Host) {
	t.Helper()
	parse := modprobe.Parse
	if tool == "cmdline" {
		parse = modprobe.ParseCmdline
	}
	rules, err := parse(bytes.NewReader(capturetest.Read(t, tool, name)))
	if err != nil {
		t.Fatal(err)
	}
	return func(h *record.Host) {
		h.Sources = append(h.Sources, record.Source{ID: id, Path: id, Status: record.StatusOK})
		for _, r := range rules {
			switch r.Module {
			case "mlx5_ib", "mlx5_core", "ib_core", "ib_uverbs", "rdma_cm", "bnxt_re", "irdma":
				h.ModuleBlocks = append(h.ModuleBlocks, record.ModuleBlock{Module: r.Module, Directive: r.Directive, Command: r.Command, Text: r.Text, Source: id, Line: r.Line})
			}
		}
	}
}

// module-blocked on the ConnectX-5 host with the rules of real captures:
// the DOCA driver container's blacklist (Mellanox/doca-driver-build#52),
// a RHEL 9 STIG image's install ib_core/rdma_cm /bin/true
// (titaniumlabsoss/hardened-images) and a BlueField's
// modprobe.blacklist=mlx5_core (mlx5_core is not one the check asks for).
func TestModuleBlocked(t *testing.T) {
	t.Parallel()
	doca := blockedBy(t, "modprobe", "doca-driver-container-blacklist-ofed-modules.txt", "etc/modprobe.d/blacklist-ofed-modules.conf")
	stig := blockedBy(t, "modprobe", "stig-rockylinux10-install-true-ib-core-rdma-cm.txt", "etc/modprobe.d/stig-blacklist.conf")
	bf := blockedBy(t, "cmdline", "bluefield-rshim-boot-args-mlx5_core.txt", "proc/cmdline")
	noDevice := func(h *record.Host) { h.Adapters[0].RDMADevices, h.Devices = nil, nil }
	// The healthy host with the rest of the stack loaded.
	stack := func(rules func(*record.Host)) func(*record.Host) {
		return func(h *record.Host) {
			rules(h)
			h.Modules = append(h.Modules, record.Module{Name: "ib_uverbs"}, record.Module{Name: "rdma_cm"})
		}
	}
	runCases(t, "module-blocked", []checkCase{
		{"nothing read", healthy, Unknown, "", ""},
		{"read, no rule", with(healthy, func(h *record.Host) {
			h.Sources = append(h.Sources, record.Source{ID: "proc/cmdline", Path: "proc/cmdline", Status: record.StatusOK})
		}), Pass, "", ""},
		{"doca blacklist, mlx5_ib loaded", with(healthy, stack(doca)), Found, Info, "0000:3b:00.0"},
		{"doca blacklist, mlx5_ib not loaded", with(healthy, func(h *record.Host) {
			doca(h)
			noDevice(h)
			h.Modules = h.Modules[:2]
		}), Found, Warning, "0000:3b:00.0"},
		{"stig install ib_core /bin/true", with(healthy, stack(stig)), Found, Info, "0000:3b:00.0"},
		{"stig, rdma_cm not loaded", with(healthy, stig), Found, Warning, "0000:3b:00.0"},
		{"bluefield mlx5_core only", with(healthy, bf), Pass, "", ""},
	})
	r, _ := Evaluate(tm(t), with(healthy, func(h *record.Host) {
		doca(h)
		noDevice(h)
		h.Modules = h.Modules[:2]
	})(), "module-blocked")
	var mlx5ib, core *Finding
	for i, f := range r.Findings {
		switch {
		case strings.HasPrefix(f.Message, "mlx5_ib"):
			mlx5ib = &r.Findings[i]
		case strings.HasPrefix(f.Message, "ib_core"):
			core = &r.Findings[i]
		}
	}
	if mlx5ib == nil || mlx5ib.Severity != Warning || !strings.Contains(mlx5ib.Fix, `"blacklist mlx5_ib" (/etc/modprobe.d/blacklist-ofed-modules.conf:4)`) || !strings.Contains(mlx5ib.Fix, "initramfs") {
		t.Errorf("mlx5_ib finding %+v, want a warning naming the line to remove and the initramfs", mlx5ib)
	}
	if core == nil || core.Severity != Info || !strings.Contains(core.Message, "dependency") {
		t.Errorf("ib_core finding %+v, want info: a blacklist does not stop a dependency", core)
	}
	// module-not-loaded names the line too.
	r, _ = Evaluate(tm(t), with(healthy, func(h *record.Host) {
		doca(h)
		noDevice(h)
		h.Modules = h.Modules[:2]
	})(), "module-not-loaded")
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Fix, "blacklist-ofed-modules.conf:4") {
		t.Errorf("module-not-loaded %+v, want its fix to name the blacklist line", r.Findings)
	}
}
