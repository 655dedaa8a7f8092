package search

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/dmesg"
	"github.com/rocekb/rocekb/internal/record"
)

// withHosts returns the bundled docs plus the host reports of the fixture
// records (testdata/hosts, written by kbcollect from real captures), made
// on the bundled SearchOnly site: its host pages yield the documents a
// full site's do (TestSearchOnlyDocs in internal/site), without judging
// the verdict grid a full site holds.
func withHosts(t *testing.T) ([]Doc, *Aliases) {
	t.Helper()
	_, al, docs := loadBundled(t)
	hosts, probs := record.LoadDir(os.DirFS("../../testdata/hosts"), "testdata/hosts")
	if probs.Errors() > 0 || len(hosts) == 0 {
		t.Fatalf("%d hosts: %v", len(hosts), probs)
	}
	all := append([]Doc(nil), docs...)
	for _, h := range hosts {
		all = append(all, bundled.s.Host(h).Page().SearchDocs()...)
	}
	return all, al
}

// both runs q on both engines and returns their URLs.
func both(t *testing.T, ix *Index, st *Static, q Query) (server, static []string) {
	t.Helper()
	res, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Results {
		server = append(server, h.URL)
	}
	hits, _ := st.Search(q)
	for _, h := range hits {
		static = append(static, h.URL)
	}
	return server, static
}

func TestHostsAfterKnowledge(t *testing.T) {
	docs, al := withHosts(t)
	ix, err := Build(docs, al)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st := NewStatic(docs, al)
	for _, q := range []string{"mlx5", "mlx5_core", "MCX4121A-ACAT", "probe failed with error -22", "bnxt_re"} {
		res, err := ix.Search(context.Background(), Query{Text: q, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		hits, total := st.Search(Query{Text: q, Limit: 100})
		if res.Total != total {
			t.Errorf("%q: bleve finds %d, static %d", q, res.Total, total)
		}
		for name, kinds := range map[string][]string{"bleve": kindsOf(res.Results, nil), "static": kindsOf(nil, hits)} {
			seenHost := false
			for i, k := range kinds {
				if k == "host" {
					seenHost = true
				} else if seenHost {
					t.Errorf("%s %q: a %s page at %d after a host report: %v", name, q, k, i+1, kinds)
					break
				}
			}
			if !seenHost && len(kinds) < 100 {
				t.Logf("%s %q: no host report among %d results", name, q, len(kinds))
			}
		}
	}
	// A query naming a host (its id, as in its title) ranks its report first.
	var host Doc
	for _, d := range docs {
		if d.Kind == "host" && len(d.IDs) > 0 && strings.Contains(d.URL, "probe") {
			host = d
			break
		}
	}
	if host.URL == "" {
		t.Fatal("no host report with probe in its name among the fixtures")
	}
	q := Query{Text: host.Title, Limit: 3}
	server, static := both(t, ix, st, q)
	if len(server) == 0 || server[0] != host.URL || len(static) == 0 || static[0] != host.URL {
		t.Errorf("%q names a host: bleve %v, static %v, want %s first", q.Text, server, static, host.URL)
	}
}

func kindsOf(hits []Hit, sh []StaticHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Kind)
	}
	for _, h := range sh {
		i := strings.Index(h.URL, "/")
		if strings.HasPrefix(h.URL, "glossary.html") {
			out = append(out, "glossary")
		} else if i > 0 {
			out = append(out, h.URL[:i])
		}
	}
	return out
}

// TestKindBoost: the same text on a FAQ page ranks above a glossary
// entry, and each kind's boost is documented.
func TestKindBoost(t *testing.T) {
	docs := []Doc{
		{URL: "glossary.html#x", Title: "Widget frobnication", Kind: "glossary", Lang: "en", Body: "frobnication of widgets"},
		{URL: "faq/x.html", Title: "Widget frobnication", Kind: "faq", Lang: "en", Body: "frobnication of widgets"},
		{URL: "vendor/x.html", Title: "Widget frobnication", Kind: "vendor", Lang: "en", Body: "frobnication of widgets"},
		{URL: "adapter/x.html", Title: "Widget frobnication", Kind: "adapter", Lang: "en", Body: "frobnication of widgets"},
	}
	ix, err := Build(docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	server, static := both(t, ix, NewStatic(docs, nil), Query{Text: "widget frobnication"})
	want := []string{"faq/x.html", "adapter/x.html", "glossary.html#x", "vendor/x.html"}
	for name, got := range map[string][]string{"bleve": server, "static": static} {
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	ref, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	for kind, b := range KindBoost {
		row := "| `" + kind + "` | " + strconv.FormatFloat(b, 'g', -1, 64) + " |"
		if !strings.Contains(string(ref), row) {
			t.Errorf("docs/reference.md: no row %s in the search ranking table", row)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Jan  2 03:04:05 node7 kernel: mlx5_core 0000:3b:00.0: probe failed":                 "mlx5_core 0000:3b:00.0: probe failed",
		"Jan 12 10:11:12 node3 kernel: [ 1234.567890] mlx5_core: x":                          "mlx5_core: x",
		"2024-05-01T10:00:00.123+02:00 gpu-01 kernel: bnxt_en 0000:41:00.0: y":               "bnxt_en 0000:41:00.0: y",
		"<4>Mar  3 01:02:03 host NetworkManager[812]: <warn> z":                              "<warn> z",
		"Feb 10 08:00:01 h1 kernel: a\nFeb 10 08:00:02 h1 kernel: b":                         "a\nb",
		"mlx5_core 0000:3b:00.0: mlx5_cmd_check:756:(pid 912): CREATE_QP(0x500) op_mod(0x0)": "mlx5_core 0000:3b:00.0: mlx5_cmd_check:756:(pid 912): CREATE_QP(0x500) op_mod(0x0)",
		// ibv_devinfo: the decimal vendor_part_id gains its PCI id, with
		// the vendor when vendor_id names it (Mellanox's IEEE 0x02c9 is
		// PCI vendor 15b3; openucx/ucx#4556, hustcat/k8s-rdma-device-plugin#8).
		"vendor_id:\t\t\t0x02c9\n\tvendor_part_id:\t\t\t4123": "vendor_id:\t\t\t0x02c9\nvendor_part_id:\t\t\t4123 15b3:101b",
		"vendor_id: 0x8086 vendor_part_id: 5523":              "vendor_id: 0x8086 vendor_part_id: 5523 8086:1593",
		"vendor_part_id: 4119":                                "vendor_part_id: 4119 1017",
		"vendor_id: 0x0000 vendor_part_id: 0":                 "vendor_id: 0x0000 vendor_part_id: 0",
		// An MST node names its device in decimal (mst.PCIID).
		"flint -d /dev/mst/mt4119_pciconf0 q": "flint -d /dev/mst/mt4119_pciconf0 15b3:1017 q",
		"/dev/mst/mt41692_pciconf0.1":         "/dev/mst/mt41692_pciconf0.1 15b3:a2dc",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTemplates: every template matches its example, its page is a page
// of the bundled knowledge base, and its example ranks that page first in
// both engines, saying what it means.
func TestTemplates(t *testing.T) {
	ix, _, docs := loadBundled(t)
	st, _, _ := loadStatic(t)
	urls := map[string]bool{}
	for _, d := range docs {
		urls[d.URL] = true
	}
	for _, tp := range Templates() {
		if !urls[tp.Page] {
			t.Errorf("template %s: page %s is not in the bundled knowledge base", tp.ID, tp.Page)
			continue
		}
		if tp.Example == "" {
			t.Errorf("template %s: no example", tp.ID)
			continue
		}
		if !tp.re.MatchString(tp.Example) {
			t.Errorf("template %s: does not match its example %q", tp.ID, tp.Example)
		}
		res, err := ix.Search(context.Background(), Query{Text: tp.Example, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		all := st.SearchAll(Query{Text: tp.Example, Limit: 3})
		if len(res.Results) == 0 || res.Results[0].URL != tp.Page || len(all.Hits) == 0 || all.Hits[0].URL != tp.Page {
			t.Errorf("template %s: %q ranks %v / %v first, want %s", tp.ID, tp.Example, res.Results, all.Hits, tp.Page)
		}
		if len(res.Explains) == 0 || res.Explains[0].Template != tp.ID && res.Explains[0].URL != tp.Page {
			t.Errorf("template %s: %q explained as %+v", tp.ID, tp.Example, res.Explains)
		}
	}
	if _, err := parseTemplates("[[template]]\nid = \"x\"\nmatch = '(?i)x'\npage = \"p\"\nmeans = \"m\"\n"); err == nil {
		t.Error("a (?i) flag passed the check for JavaScript syntax")
	}
}

// TestTemplatesKeepToRDMA: a device reset or a link going down is
// explained only when an RDMA speaker says it; the same words from other
// drivers (their format strings in the kernel: e1000e's netdev.c, the USB
// hub's hub.c, NVMe's pci.c, igb's igb_main.c, phylib's phy.c) are not
// RDMA lines.
func TestTemplatesKeepToRDMA(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"e1000e 0000:00:1f.6 eno1: Reset adapter unexpectedly",
		"usb 1-1: reset high-speed USB device number 2 using xhci_hcd",
		"nvme nvme0: I/O 12 QID 3 timeout, reset controller",
		"igb 0000:01:00.0 eno1: igb: eno1 NIC Link is Down",
		"r8169 0000:02:00.0 enp2s0: Link is Down",
	} {
		for _, tp := range Templates() {
			if tp.re.MatchString(line) {
				t.Errorf("template %s explains a line no RDMA driver says: %q", tp.ID, line)
			}
		}
	}
}

// TestTemplatesCoverClassifier: every line of the kernel-log captures
// that the engine's classifier (dmesg.ParseLog, as kbgen check reads a
// log) puts in a kind some template stands for matches a template of
// that kind, so search explains the failures check reports.
func TestTemplatesCoverClassifier(t *testing.T) {
	byKind := map[string][]*Template{}
	ts := Templates()
	for i := range ts {
		if k := ts[i].Kind; k != "" {
			byKind[k] = append(byKind[k], &ts[i])
		}
	}
	files, _ := filepath.Glob("../../testdata/captures/dmesg/*.txt")
	if len(files) == 0 {
		t.Fatal("no kernel-log captures in testdata/captures/dmesg")
	}
	checked := 0
	for _, f := range files {
		src, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		log, err := dmesg.ParseLog(src)
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range log.Events {
			ts := byKind[ev.Kind]
			if len(ts) == 0 {
				continue
			}
			checked++
			ok := false
			for _, tp := range ts {
				ok = ok || tp.re.MatchString(ev.Text)
			}
			if !ok {
				t.Errorf("%s:%d: classified %s, matched by no template of that kind: %q", filepath.Base(f), ev.Line, ev.Kind, ev.Text)
			}
		}
	}
	if checked == 0 {
		t.Error("no captured line of a kind the templates stand for")
	}
	t.Logf("%d classified lines checked", checked)
}

// TestFuzzy: a misspelled model or identifier is searched as the name it
// is a typo of, in both engines; a known token and a long pasted line are
// left alone.
func TestFuzzy(t *testing.T) {
	ix, _, _ := loadBundled(t)
	st, _, _ := loadStatic(t)
	for q, want := range map[string]string{
		"conectx6":          "ConnectX-6",
		"conectx-5":         "ConnectX-5",
		"mlx5_cor":          "mlx5_core",
		"mlx5_croe":         "mlx5_core",
		"conectx6 firmware": "ConnectX-6 firmware",
		"mlx5_core":         "",
		"ConnectX-5":        "",
		// A word spelt as a name is no typo, known term or not.
		"mlx5 does not work": "",
		// In a long query only a model's shape (letters and digits) is
		// corrected: its words are more often words no page uses.
		"Failed to modify QP to RTR while conectx6 was up":          "Failed to modify QP to RTR while ConnectX-6 was up",
		"Fixed bugs related to porting Bluefild2 and CX6LX support": "Fixed bugs related to porting BlueField-2 and CX6LX support",
		"Failed to modify QP to RTR while conectx was up":           "",
		// A typo is in the letters: a digit off is another model
		// (MT27800 is ConnectX-5, MT27801 no model the base knows).
		"MT27801": "",
		// Letters dropped from a part number with its digits: the
		// vendor's M and the revision letter of MCX4121A.
		"CX4121":      "MCX4121A",
		"P425G 4x25G": "",
		// A PCI id one digit from a known one is another device: the
		// subsystem id 15b3:0016 is not 15b3:1016 (pci.ids).
		"15b3:101d 15b3:0016": "",
		"14e4:16d7 14e4:1402": "",
	} {
		res, err := ix.Search(context.Background(), Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		all := st.SearchAll(Query{Text: q})
		if res.DidYouMean != want || all.DidYouMean != want {
			t.Errorf("%q: bleve corrects to %q, static to %q, want %q", q, res.DidYouMean, all.DidYouMean, want)
		}
	}
	server, static := both(t, ix, st, Query{Text: "conectx6", Limit: 1})
	if len(server) == 0 || server[0] != "adapter/connectx-6.html" || len(static) == 0 || static[0] != server[0] {
		t.Errorf("conectx6: bleve %v, static %v, want adapter/connectx-6.html", server, static)
	}
}

// TestPaging: the pages of results are the slices of one long ranking,
// in both engines, and the total counts them all.
func TestPaging(t *testing.T) {
	ix, _, _ := loadBundled(t)
	st, _, _ := loadStatic(t)
	for _, q := range []string{"mlx5", "RoCE v2", "firmware"} {
		longS, longT := both(t, ix, st, Query{Text: q, Limit: 60})
		res, _ := ix.Search(context.Background(), Query{Text: q, Limit: 60})
		if res.Total <= 10 {
			t.Fatalf("%q: %d results, want more than a page", q, res.Total)
		}
		for off := 0; off < len(longS); off += 10 {
			s, st2 := both(t, ix, st, Query{Text: q, Limit: 10, Offset: off})
			if strings.Join(s, " ") != strings.Join(longS[off:min(off+10, len(longS))], " ") {
				t.Errorf("%q offset %d: bleve page %v is not its slice of the ranking", q, off, s)
			}
			if strings.Join(st2, " ") != strings.Join(longT[off:min(off+10, len(longT))], " ") {
				t.Errorf("%q offset %d: static page %v is not its slice of the ranking", q, off, st2)
			}
		}
	}
}

// TestEntityBoost: the page of a thing the query names by its id ranks
// above the pages that mention it most, in both engines: the driver page
// for its module (not the stack that ships it), the adapter page for a
// question naming the adapter and a stack (not the FAQs on the stack).
func TestEntityBoost(t *testing.T) {
	ix, _, _ := loadBundled(t)
	st, _, _ := loadStatic(t)
	for q, want := range map[string]string{
		"enic_rdma": "driver/enic_rdma.html",
		// A driver id that is a plain word, named by an FAQ in its title,
		// ids, a heading and its body (the ice DDP page for irdma).
		"irdma": "driver/irdma.html",
		"qedr":  "driver/qedr.html",
		"which firmware for ConnectX-5 with MLNX_OFED 5.8": "adapter/connectx-5.html",
	} {
		server, static := both(t, ix, st, Query{Text: q, Limit: 3})
		if len(server) == 0 || server[0] != want || len(static) == 0 || static[0] != want {
			t.Errorf("%q: bleve %v, static %v, want %s first", q, server, static, want)
		}
	}
	for _, d := range []Doc{{URL: "glossary.html#roce", Kind: "glossary"}, {URL: "vendor/nvidia.html", Kind: "vendor"}, {URL: "faq/softroce.html", Kind: "faq"}} {
		if id := entityOf(&d); id != "" {
			t.Errorf("%s is the page of %q; only adapter, driver, stack and distro pages are", d.URL, id)
		}
	}
}
