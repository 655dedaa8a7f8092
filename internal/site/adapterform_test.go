package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFormFindsAdaptersAsEngine runs static/will.js's adapter lookup in
// node over every name the matrix gives an adapter and over longer texts
// that name one (lspci lines, pci.ids names, product names), and requires
// the adapter matrix.ResolveAdapter finds, or none where it finds none or
// several: the form and kbgen check read a name alike.
func TestFormFindsAdaptersAsEngine(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
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
		"Mellanox ConnectX-6 crypto", "0x15b3:0x1017", "15b3:1017/15b3:0007", "1137:0043", "1017", "MCX516A-CCAT_C01",
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
	src, err := os.ReadFile("../../static/will.js")
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	js.WriteString("var window = {}, document = {currentScript: null, getElementById: function () { return null; }};\n")
	js.Write(src)
	js.WriteString("var rocekbVerdicts = window.rocekbVerdicts;\n")
	js.Write(index)
	fmt.Fprintf(&js, "console.log(JSON.stringify(%s.map(function (s) { return window.rocekbVerdicts.find(s) || \"\"; })));\n", mustJSON(inputs))
	cmd := exec.Command(node, "-")
	cmd.Stdin = &js
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		e := stderr.String()
		t.Fatalf("node: %v\n%s", err, e[max(0, len(e)-2000):])
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(inputs) {
		t.Fatalf("node printed %d answers for %d inputs (%v): %.300s", len(got), len(inputs), err, out)
	}
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
