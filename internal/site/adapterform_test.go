package site

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/version"
)

// TestFormFindsAdaptersAsEngine runs static/will.js's adapter lookup (and
// its reading of a pasted kernel release) in
// node over every name the matrix gives an adapter and over longer texts
// that name one (lspci lines, pci.ids names, product names), and requires
// the adapter matrix.ResolveAdapter finds, or none where it finds none or
// several: the form and kbgen check read a name alike.
func TestFormFindsAdaptersAsEngine(t *testing.T) {
	t.Parallel()
	js := willJS(t)
	s, m := bundledSite(t)
	index, _ := verdictIndex(t, s)
	inputs := []string{
		"cx5", "CX-6 Dx", "MT27800", "mlx5", "BF3", "banana", "Broadcom ConnectX-5", "ConnectX-5 or ConnectX-6",
		"MT2892 Family [ConnectX-6 Dx]", "Mellanox Technologies MT28908 Family [ConnectX-6]",
		"3b:00.0 Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]",
		"Ethernet controller: Mellanox Technologies MT27710 Family [ConnectX-4 Lx]",
		"Broadcom Inc. and subsidiaries BCM57414 NetXtreme-E 10Gb/25Gb RDMA Ethernet Controller (rev 01)",
		"Intel Corporation Ethernet Controller E810-XXV for SFP (rev 02)", "Intel Ethernet Controller E810-C for QSFP",
		"ConnectX-6 Dx EN adapter card, 100GbE", "ConnectX-4 Lx EN", "NVIDIA ConnectX-7 VPI 400Gb/s OSFP",
		"Mellanox ConnectX-6 crypto", "Broadcom P425G 4x25G", "ConnectX-6 Dx 2x100GbE PCIe Gen4 x16",
		"NetXtreme-E Dual-port 100G QSFP56 Ethernet PCIe4.0 x16 Adapter (BCM957508-P2100G)", "0x15b3:0x1017", "15b3:1017/15b3:0007", "1137:0043", "1017", "MCX516A-CCAT_C01",
		// As people wrote them (internal/matrix's TestResolveAdapterAsWritten).
		"Mellanox ConnectX-6 Dx Dual Port 100 GbE QSFP56 Network Adapter", "MCX631102AN-ADA_Ax", "mcx4121a-aca_a1", "MCX4131A-BCAT",
		"Mellanox MT27700 Family [ConnectX-4] VPI adapter card, EDR IB (100Gb/s), single-port QSFP28",
		"QLogic FastLinQ QL41000 Series Controller (VBD Client)", `PCI\VEN_1077&DEV_8070&SUBSYS_10027053&REV_02`, "VEN_1414&DEV_00BA",
		`PCI\VEN_1137&DEV_0043&SUBSYS_02151137`, "MT42822 BlueField-2 integrated ConnectX-6 Dx", "Intel(R) Ethernet Controller E810-C for QSFP", "VIC",
		// ibstat's CA type (openucx/ucx#5749): MT and the decimal PCI device id.
		"MT4115", "mt4119", "MT4099", "MT4129", "MT9999", "MT41682", "MT99999",
		"BCM957608-P2200G", "BCM957608-P2200GQF00", "bcm957608-p2200g", "P2200G", "BCM957999-P2200G", "ConnectX-8 SuperNIC", "NVIDIA BlueField-3 SuperNIC", "AMD Pensando Pollara 400 AI NIC", "BF-2",
		// Either side of the longest text read (matrix.MaxTextWords).
		strings.Repeat("Mellanox ConnectX-5 ", 16), strings.Repeat("Mellanox ConnectX-5 ", 17), strings.Repeat("word ", 5000),
	}
	for i := range m.Adapters {
		a := &m.Adapters[i]
		inputs = append(inputs, a.ID, a.Name)
		inputs = append(inputs, m.AdapterNames(a)...)
		for _, p := range a.PCI {
			inputs = append(inputs, p.ID, strings.ToUpper(p.ID), p.ID[5:])
			if p.Subsystem != "" {
				inputs = append(inputs, p.ID+"/"+p.Subsystem)
			}
		}
	}
	js.WriteString("var rocekbVerdicts = window.rocekbVerdicts;\n")
	js.Write(index)
	kernels := []string{"6.8", "5.14.0-427.13.1.el9_4.x86_64", "Linux node1 5.14.0-427.13.1.el9_4.x86_64 #1 SMP PREEMPT_DYNAMIC Wed Apr 10 10:29:16 EDT 2024 x86_64 x86_64 x86_64 GNU/Linux",
		"Linux 6.8.0-45-generic x86_64", "kernel-5.14.0-427.13.1.el9_4", "kernel-core-4.18.0-553.el8_10.x86_64", "linux-image-6.1.0-18-amd64", "vmlinuz-6.8.0-45-generic",
		"linux-6.8", "Linux", "Linux host banana", "kernel-", "banana",
		"            Kernel: Linux 5.14.0-70.6.1.el9_0.ppc64le", "5.15.0-2000-aws #2000 SMP Thu May 23 13:16:55 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux", "banana #1", "Kernel:"}
	firmware := []string{"22.36.1010 (MT_0000000359)", "firmware-version: 22.36.1010 (MT_0000000359)", "fw_ver:\t16.35.2000", "5.1(1b)",
		"mfw 8.25.7.0 storm 8.20.0.0", "FW             22.31.2006     N/A", "firmware-version: 4.30 0x8001af27 1.3429.0",
		"firmware-version: 220.0.59.0/pkg 220.0.83.0", "[   12.926115] mlx5_core 0000:03:00.0: firmware version: 14.32.1010",
		"FW: 28.42.1000", "FW Version:      2.35.5100", "bc 7.10.4", "fwupd 1.9", "N/A", "\u0130 fw: 1", "fw", "FW:", "/pkg 1", "fw\t\u00a01",
		"fw.version 28.41.1000", "1: bnxt_re1: node_type ca protocol roce fw 231.0.154.0 node_guid 8e84:74ff:fe1f:2551", "pkg 231.0.162.0",
		"mfw 8.25.7.0", "x\tfw 1.2", "fw.mgmt 224.0.110.0", "fwfw 1"}
	fmt.Fprintf(js, "var v = window.rocekbVerdicts; console.log(JSON.stringify({a: %s.map(function (s) { return v.find(s) || \"\"; }), k: %s.map(v.trimKernel), f: %s.map(v.trimFirmware)}));\n", mustJSON(inputs), mustJSON(kernels), mustJSON(firmware))
	out := runNode(t, js)
	var res struct{ A, K, F []string }
	if err := json.Unmarshal(out, &res); err != nil || len(res.A) != len(inputs) || len(res.K) != len(kernels) || len(res.F) != len(firmware) {
		t.Fatalf("node printed %d, %d and %d answers for %d, %d and %d inputs (%v): %.300s", len(res.A), len(res.K), len(res.F), len(inputs), len(kernels), len(firmware), err, out)
	}
	for i, k := range kernels {
		if want := rule.TrimKernel(k); res.K[i] != want {
			t.Errorf("kernel %q: the form reads %q, kbgen check %q", k, res.K[i], want)
		}
	}
	for i, f := range firmware {
		if want := version.TrimFirmware(f); res.F[i] != want {
			t.Errorf("firmware %q: the form reads %q, kbgen check %q", f, res.F[i], want)
		}
	}
	got := res.A
	found := 0
	for i, in := range inputs {
		want := ""
		if a := m.ResolveAdapter(in).Value; a != nil {
			want = a.ID
			found++
		}
		if got[i] != want {
			t.Errorf("%q: the form finds %q, kbgen check %q", in, got[i], want)
		}
	}
	if found < len(m.Adapters) {
		t.Errorf("only %d of %d inputs found an adapter: the inputs are not the matrix's names", found, len(inputs))
	}
}

// TestFormSuggestsAdaptersAsEngine requires the form's "did you mean" for
// a name the matrix lacks to be kbgen check's: a part number near another
// generation's (MCX456A-ECAT, a ConnectX-4, one character from
// MCX556A-ECAT, a ConnectX-5) is suggested neither there nor here. A
// driver's name (qedr, mlx5_core, mlx5) is answered with the adapters it
// drives, as kbgen check answers it.
func TestFormSuggestsAdaptersAsEngine(t *testing.T) {
	t.Parallel()
	js := willJS(t)
	s, m := bundledSite(t)
	index, _ := verdictIndex(t, s)
	inputs := []string{"MCX456A-ECAT", "MCX556A-ECA", "MCX516A-CCA", "MCX4121A-ACA", "conectx6", "conectx-4 lx", "bcm5741", "e81O", "banana",
		"Mellanox conectx6", "NVIDIA ConnectX-99", "E810", "NetXtreme-E", "qedr", "MLX5-Core", " mlx5 ", "mlx", "bnxt", "ice", "irdma", "mlx4_ib", "rxe", ""}
	for mod := range m.ModuleAdapters() {
		inputs = append(inputs, mod)
	}
	js.WriteString("var rocekbVerdicts = window.rocekbVerdicts;\n")
	js.Write(index)
	fmt.Fprintf(js, "var v = window.rocekbVerdicts; console.log(JSON.stringify(%s.map(function (s) { return [v.suggest(s), v.drives(s)]; })));\n", mustJSON(inputs))
	var got [][2][]string
	if err := json.Unmarshal(runNode(t, js), &got); err != nil || len(got) != len(inputs) {
		t.Fatalf("node printed %d answers for %d inputs: %v", len(got), len(inputs), err)
	}
	drivers := 0
	for i, in := range inputs {
		r := m.ResolveAdapter(in)
		if want := r.Suggest; r.Value == nil && strings.Join(got[i][0], ",") != strings.Join(want, ",") {
			t.Errorf("%q: the form suggests %v, kbgen check %v", in, got[i][0], want)
		}
		drives := m.ModuleDrives(in)
		if strings.Join(got[i][1], ",") != strings.Join(drives, ",") {
			t.Errorf("%q: the form says the driver drives %v, kbgen check %v", in, got[i][1], drives)
		}
		if len(drives) > 0 {
			drivers++
		}
		if in == "MCX456A-ECAT" && strings.Contains(strings.Join(got[i][0], ","), "connectx-5") {
			t.Errorf("MCX456A-ECAT: the form suggests %v, a ConnectX-5 for a ConnectX-4 part", got[i][0])
		}
	}
	if drivers < len(m.ModuleAdapters()) {
		t.Errorf("only %d inputs name a driver, fewer than the matrix's %d modules", drivers, len(m.ModuleAdapters()))
	}
}
