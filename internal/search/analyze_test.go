package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// analyzerMapping returns the bundled aliases' analyzer: part numbers come
// from the matrix's [[part_number]] rows (MCX516A-CCAT is a ConnectX-5).
func analyzerMapping(t *testing.T) func(string) []string {
	t.Helper()
	_, al, _ := loadBundled(t)
	im, err := newMapping(al)
	if err != nil {
		t.Fatal(err)
	}
	return func(text string) []string {
		ts, err := im.AnalyzeText(AnalyzerName, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, tok := range ts {
			out = append(out, string(tok.Term))
		}
		return out
	}
}

func TestAnalyzeExact(t *testing.T) {
	analyze := analyzerMapping(t)
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"mlx5_core", []string{"mlx5_core", "mlx5", "core", "mlx5_ib"}}, // the Ethernet half of mlx5_ib: its alias
		{"15b3:1017", []string{"15b3:1017", "15b3", "1017", "connectx-5"}},
		{"1017", []string{"1017"}},
		{"16.35.2000", []string{"16.35.2000", "16.35"}},
		{"5.1(2x)", []string{"5.1(2x)", "5.1", "2x"}},
		// The glossary lists RTR among the aliases of QP.
		{"Failed to modify QP to RTR", []string{"fail", "modifi", "qp", "rtr", "qp"}},
		// The glossary lists the message among the aliases of modversions.
		{"disagrees about version of symbol", []string{"disagre", "modversions", "version", "symbol"}},
		{"connections dropped", []string{"connect", "drop"}},
		// Timestamps, PCI addresses, MACs and pointers are dropped; the
		// words and the errno stay.
		{"[   12.345678] mlx5_core 0000:3b:00.0: probe of 0000:3b:00.0 failed with error -22",
			[]string{"mlx5_core", "mlx5", "core", "mlx5_ib", "probe", "fail", "error", "22"}},
		{"Jan  2 03:04:05 host kernel: link 3b:00.0 aa:bb:cc:dd:ee:ff at ffffffffc0a1b2c3", []string{"jan", "2", "host", "kernel", "link"}},
		// Names of several tokens match token by token, at their first.
		{"RoCE v2 mode", []string{"roce", "roce-v2", "v2", "mode"}},
		{"ConnectX-4 Lx card", []string{"connectx-4", "connectx", "4", "connectx-4-lx", "lx", "card"}},
		{"RoCE 模式", []string{"roce", "模式"}},
		{"默认模式", []string{"默认", "认模", "模式"}},
	} {
		if diff := cmp.Diff(tc.want, analyze(tc.in)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestAnalyzeSame checks that spellings of one thing share a term.
func TestAnalyzeSame(t *testing.T) {
	analyze := analyzerMapping(t)
	for _, tc := range []struct {
		term  string
		names []string
	}{
		{"connectx-5", []string{"ConnectX-5", "CX-5", "CX5", "connectx5", "ConnectX 5", "MT27800", "MCX516A-CCAT", "15b3:1017"}},
		{"connectx-4-lx", []string{"ConnectX-4 Lx", "CX-4 Lx", "cx4lx"}},
		{"roce-v2", []string{"RoCEv2", "RoCE v2", "roce-v2"}},
		{"softroce", []string{"SoftRoCE", "Soft-RoCE", "Soft RoCE", "rxe", "rdma_rxe"}},
		{"nvidia", []string{"Mellanox", "NVIDIA"}},
		{"enic_rdma", []string{"enic_rdma: IPv4 RoCEv2 enabled"}},
		{"roce-v2", []string{"enic_rdma: IPv4 RoCEv2 enabled"}},
		{"enabl", []string{"enic_rdma: IPv4 RoCEv2 enabled", "enables"}},
		{"1017", []string{"15b3:1017", "1017"}},
		{"16.35", []string{"16.35", "16.35.2000", "16.35.1012"}},
	} {
		for _, n := range tc.names {
			got := analyze(n)
			found := false
			for _, g := range got {
				found = found || g == tc.term
			}
			if !found {
				t.Errorf("%q gives %q, want a %q among them", n, got, tc.term)
			}
		}
	}
}

// TestAnalyzeApart checks that different things stay apart.
func TestAnalyzeApart(t *testing.T) {
	analyze := analyzerMapping(t)
	for _, tc := range []struct{ text, not string }{
		{"ConnectX-4", "connectx-4-lx"},
		{"ConnectX-5", "connectx-5-ex"},
		{"RoCE v1", "roce-v2"},
		{"16.35", "16"},
		{"probe of 0000:3b:00.0 failed", "0000:3b:00.0"},
		{"probe of 0000:3b:00.0 failed", "3b"},
	} {
		for _, g := range analyze(tc.text) {
			if g == tc.not {
				t.Errorf("%q gives %q", tc.text, tc.not)
			}
		}
	}
}

// TestQueryTermsDropPrefixes: a version query matches longer versions
// through the prefixes indexed for them, not by expanding itself.
func TestQueryTermsDropPrefixes(t *testing.T) {
	an := &Analyzer{}
	got := an.QueryTerms("16.35.2000")
	want := []QueryTerm{{Term: "16.35.2000", Kind: Version, Weight: KindWeight[Version]}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

// TestQualifiers: a vendor named beside one of its own adapters only
// qualifies it, so its terms leave the query; named alone, or beside
// another vendor's adapter, it stays. Terms are compared as sets of the
// vendor's terms present.
func TestQualifiers(t *testing.T) {
	_, al, _ := loadBundled(t)
	an := &Analyzer{Aliases: al}
	for q, keep := range qualifierQueries {
		if got := hasVendorTerm(an.QueryTerms(q)); got != keep {
			t.Errorf("%q: vendor terms kept %v, want %v (%v)", q, got, keep, an.QueryTerms(q))
		}
	}
}

// qualifierQueries are queries naming a vendor, and whether its terms
// stay in the query.
var qualifierQueries = map[string]bool{
	"Mellanox ConnectX-5": false,
	"NVIDIA cx7":          false,
	// lspci -nn, its vendor name and its bracketed model (pci.ids).
	"Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]": false,
	"Mellanox":          true,
	"Mellanox firmware": true,
	"Mellanox BCM57414": true, // not Mellanox's adapter
}

// hasVendorTerm reports whether qts hold the term of the vendor of
// qualifierQueries.
func hasVendorTerm(qts []QueryTerm) bool {
	for _, qt := range qts {
		if qt.Term == "nvidia" || qt.Term == "mellanox" {
			return true
		}
	}
	return false
}

// TestVendorChipDigits: "Broadcom 57414", the vendor's name and the digits
// of the chip designator, names the adapter, as OEMs sell the card; the
// digits alone do not (a pid or a counter could be 57414).
func TestVendorChipDigits(t *testing.T) {
	_, al, _ := loadBundled(t)
	an := &Analyzer{Aliases: al}
	for q, want := range map[string]bool{"Broadcom 57414 Dual Port 10/25GbE SFP28": true, "broadcom 57508": true, "57414": false, "mlx5_core (pid 57414)": false} {
		got := false
		for _, qt := range an.QueryTerms(q) {
			got = got || qt.Term == "bcm57414" || qt.Term == "bcm57508"
		}
		if got != want {
			t.Errorf("%q names a BCM adapter: %v, want %v (%v)", q, got, want, an.QueryTerms(q))
		}
	}
}

// TestExpandedOnce checks that a token's remembered terms are the ones a
// fresh expansion gives, in a text that repeats tokens of every kind.
func TestExpandedOnce(t *testing.T) {
	text := "mlx5_core 15b3:1017 16.35.2000 5.1(2x) Failed to modify QP to RTR 默认模式 "
	var a Analyzer
	expanded.Clear()
	nExpanded.Store(0)
	fresh := a.Analyze(text)
	twice := a.Analyze(text + text)
	if diff := cmp.Diff(fresh, twice[:len(fresh)]); diff != "" {
		t.Errorf("the first copy changed (-fresh +remembered):\n%s", diff)
	}
	for i, tok := range twice[len(fresh):] {
		f := fresh[i]
		f.Pos, f.Start, f.End = f.Pos+fresh[len(fresh)-1].Pos, f.Start+len(text), f.End+len(text)
		if tok != f {
			t.Errorf("remembered term %d = %+v, fresh %+v", i, tok, f)
		}
	}
}
