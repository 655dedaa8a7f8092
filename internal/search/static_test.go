package search

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite testdata/terms.golden")

// outputsOf returns st's outputs by path.
func outputsOf(t *testing.T, st *Static) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if err := st.Outputs(func(p string, data []byte) error { files[p] = data; return nil }); err != nil {
		t.Fatal(err)
	}
	return files
}

// writeOutputs writes st's outputs into dir and returns them by path.
func writeOutputs(st *Static, dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	return files, st.Outputs(func(p string, data []byte) error {
		files[p] = data
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, data, 0o644)
	})
}

func TestStaticDeterministic(t *testing.T) {
	_, al, docs := loadBundled(t)
	_, _, a := loadStatic(t)
	// Reversed input order must not change a byte.
	rev := append([]Doc(nil), docs...)
	sort.Slice(rev, func(i, j int) bool { return rev[i].URL > rev[j].URL })
	b := outputsOf(t, NewStatic(rev, al))
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	total, shards, frags := 0, 0, 0
	for p, data := range a {
		if !bytes.Equal(data, b[p]) {
			t.Errorf("%s differs between two builds", p)
		}
		if !bytes.HasPrefix(data, []byte("rocekbSearch.")) && !strings.HasSuffix(p, "/index.html") {
			t.Errorf("%s does not register itself: %.40q", p, data)
		}
		total += len(data)
		if strings.HasPrefix(p, "search/s/") {
			shards++
		}
		if strings.HasPrefix(p, "search/f/") {
			frags++
		}
	}
	if _, ok := a["search/manifest.js"]; !ok {
		t.Fatal("no search/manifest.js")
	}
	t.Logf("static index: %d files (%d shards, %d fragment files for %d docs), %d bytes; manifest %d bytes",
		len(a), shards, frags, len(docs), total, len(a["search/manifest.js"]))
}

// goldenQueries are the awkward cases: identifiers, aliases, versions,
// pasted lines, Chinese.
var goldenQueries = []string{
	"mlx5_core", "CX5", "ConnectX-5", "connectx5", "MT27800", "15b3:1017", "1017", "RoCEv2", "RoCE v2",
	"SoftRoCE", "Soft-RoCE", "rxe", "5.1(2x)", "5.1-0.6.6.0", "enic_rdma: IPv4 RoCEv2 enabled",
	"Failed to modify QP to RTR", "[  7.123456] mlx5_core 0000:3b:00.0: probe of 0000:3b:00.0 failed with error -22",
	"disagrees about version of symbol", "RoCE 模式", "软件栈 混用", "CX-4 Lx", "Mellanox", "0x8915",
	"cx-6dx", "vendor_id: 0x02c9 vendor_part_id: 4125", "Mellanox ConnectX-5", "15b3:101d 15b3:0016",
	"Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]",
	"mlxconfig -d /dev/mst/mt4125_pciconf0 q", "rping -s -a 192.168.1.1 -v", "5.15.0-1234-generic",
	"Broadcom 57414 Dual Port 10/25GbE SFP28", "mlx5 does not work",
}

// TestTermsGolden checks query → terms on both sides: the Go analyzer,
// the Go mirror of search.js, and search.js itself under node. Only terms
// the index has are compared: a term no page has cannot change a ranking.
func TestTermsGolden(t *testing.T) {
	t.Parallel()
	_, al, _ := loadBundled(t)
	st, dir, _ := loadStatic(t)
	an := &Analyzer{Aliases: al}
	render := func(qts []QueryTerm) []string {
		out := []string{}
		for _, q := range qts {
			if st.Vocabulary(q.Term) {
				out = append(out, fmt.Sprintf("%s/%g", q.Term, q.Weight))
			}
		}
		return out
	}
	got := map[string][]string{}
	for _, q := range goldenQueries {
		// Terms of the query as both engines search it: normalized.
		got[q] = render(an.QueryTerms(Normalize(q)))
		if diff := cmp.Diff(got[q], render(st.StaticTerms(Normalize(q)))); diff != "" {
			t.Errorf("%q: static terms differ from the analyzer's (-analyzer +static):\n%s", q, diff)
		}
	}
	const golden = "testdata/terms.golden"
	if *update {
		data, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(golden, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]string
	if err := json.Unmarshal(src, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("analyzer terms differ from %s (-want +got; go test -update rewrites it):\n%s", golden, diff)
	}

	qs := harnessQueries(t)
	var js map[string]struct {
		Terms      []string
		Top        []int
		URLs       []string
		DidYouMean string
		Explains   []string
	}
	runHarness(t, dir, qs, "", &js)
	for _, q := range goldenQueries {
		var jsTerms []string
		for _, term := range js[q].Terms {
			if st.Vocabulary(term[:strings.LastIndex(term, "/")]) {
				jsTerms = append(jsTerms, term)
			}
		}
		if jsTerms == nil {
			jsTerms = []string{}
		}
		if diff := cmp.Diff(want[q], jsTerms); diff != "" {
			t.Errorf("%q: search.js terms differ from the golden (-golden +js):\n%s", q, diff)
		}
	}
	// search.js ranks exactly as the Go mirror of it, corrects and
	// explains alike.
	for _, q := range qs {
		all := rankedStatic(t, q)
		hits := all.Hits
		if all.DidYouMean != js[q].DidYouMean {
			t.Errorf("%q: search.js corrects to %q, Static.Search to %q", q, js[q].DidYouMean, all.DidYouMean)
		}
		var ex []string
		for _, e := range all.Explains {
			ex = append(ex, e.Template)
		}
		if diff := cmp.Diff(ex, js[q].Explains, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%q: search.js explains otherwise (-go +js):\n%s", q, diff)
		}
		goTop, goURLs := []int{}, []string{}
		for _, h := range hits {
			goTop = append(goTop, h.Doc)
			goURLs = append(goURLs, h.URL)
		}
		jsTop := js[q].Top
		if jsTop == nil {
			jsTop = []int{}
		}
		if diff := cmp.Diff(goTop, jsTop); diff != "" {
			t.Errorf("%q: search.js ranking differs from Static.Search (-go +js):\n%s", q, diff)
		}
		jsURLs := js[q].URLs
		if jsURLs == nil {
			jsURLs = []string{}
		}
		if diff := cmp.Diff(goURLs, jsURLs); diff != "" {
			t.Errorf("%q: the fragments search.js loads name other pages (-go +js):\n%s", q, diff)
		}
	}
}

// harnessQueries are the queries search.js runs under node: the golden
// ones and the query set's.
func harnessQueries(t *testing.T) []string {
	t.Helper()
	qs := append([]string{}, goldenQueries...)
	for _, q := range loadQueries(t).Query {
		qs = append(qs, q.Q)
	}
	// The held-out sets too: search.js must rank them as the Go mirror.
	files, _ := filepath.Glob("testdata/heldout/*.toml")
	for _, f := range files {
		var h querySet
		if _, err := toml.DecodeFile(f, &h); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, q := range h.Query {
			qs = append(qs, q.Q)
		}
	}
	return qs
}

// runHarness runs search.js under node (testdata/static_harness.js, in
// mode) on the static index in dir for the queries qs, and decodes what
// it prints into v. It skips the test when node is not installed.
func runHarness(t *testing.T, dir string, qs []string, mode string, v any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: search.js side not checked")
	}
	in, _ := json.Marshal(qs)
	cmd := exec.Command(node, "testdata/static_harness.js", dir, "../../static/search.js", mode)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("node output: %v\n%.300s", err, out)
	}
}

// TestFirstQuery reads the written index back the way search.js does
// and checks that it ranks as Static.Search, loading only some shards.
func TestFirstQuery(t *testing.T) {
	t.Parallel()
	_, dir, files := loadStatic(t)
	ss, err := OpenStatic(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	shards := 0
	for p := range files {
		if strings.HasPrefix(p, "search/s/") {
			shards++
		}
	}
	// Every query, in Go: FirstQuery ranks as Static.Search and loads
	// only some shards.
	type first struct {
		loads []string
		top   []int
	}
	qs := harnessQueries(t)
	got := make(map[string]first, len(qs))
	for _, q := range qs {
		loads, top, err := ss.FirstQuery(q, 10)
		if err != nil {
			t.Fatal(err)
		}
		got[q] = first{loads, top}
		want := []int{}
		for _, h := range rankedStatic(t, q).Hits {
			want = append(want, h.Doc)
		}
		if top == nil {
			top = []int{}
		}
		if diff := cmp.Diff(want, top); diff != "" {
			t.Errorf("%q: FirstQuery ranks otherwise than Static.Search (-static +first):\n%s", q, diff)
		}
		n := 0
		for _, f := range loads {
			if _, ok := files[f]; !ok {
				t.Errorf("%q: loads %s, which the index does not have", q, f)
			}
			if strings.HasPrefix(f, "search/s/") {
				n++
			}
		}
		if n == 0 || n == shards {
			t.Errorf("%q: loads %d of %d shards", q, n, shards)
		}
	}
	// search.js, in a fresh page, loads the files FirstQuery lists. A
	// fresh page costs node about 9 ms, so it runs the golden queries and
	// each other query that loads a file no query before it here loads,
	// or a number of shards none of them loads: every file a first query
	// reads is read by a fresh page, in its place among a query's loads,
	// and so is every count of shards (TestTermsGolden's harness runs
	// every query in one page, ranking as the Go mirror).
	var fresh []string
	read, counts := map[string]bool{}, map[int]bool{}
	for i, q := range qs {
		take, shards := i < len(goldenQueries), 0
		for _, f := range got[q].loads {
			if strings.HasPrefix(f, "search/s/") {
				shards++
			}
			if !read[f] {
				read[f], take = true, true
			}
		}
		if !counts[shards] {
			counts[shards], take = true, true
		}
		if take {
			fresh = append(fresh, q)
		}
	}
	var js map[string]struct {
		Files []string
		Top   []int
	}
	t.Logf("%d of %d queries in fresh pages, reading %d files", len(fresh), len(qs), len(read))
	runHarness(t, dir, fresh, "first", &js)
	for _, q := range fresh {
		if diff := cmp.Diff(got[q].loads, js[q].Files); diff != "" {
			t.Errorf("%q: search.js in a fresh page loads other files than FirstQuery (-go +js):\n%s", q, diff)
		}
		if diff := cmp.Diff(got[q].top, js[q].Top, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%q: search.js in a fresh page ranks otherwise than FirstQuery (-go +js):\n%s", q, diff)
		}
	}
}

// TestOwnersInShards: the adapter → vendor table of dropQualifiers is in
// the shards (o), each entry in the shard its adapter term sorts into, not
// in the manifest every first query loads (2,057 entries, 71 KB of it on
// the 10k corpus); and the static site read back drops a vendor named
// beside its adapter from the shards a first query loads.
func TestOwnersInShards(t *testing.T) {
	_, al, _ := loadBundled(t)
	_, dir, files := loadStatic(t)
	var man map[string]json.RawMessage
	body := bytes.TrimSuffix(bytes.TrimPrefix(files["search/manifest.js"], []byte("rocekbSearch.manifest(")), []byte(");\n"))
	if err := json.Unmarshal(body, &man); err != nil {
		t.Fatal(err)
	}
	if _, ok := man["own"]; ok {
		t.Error("search/manifest.js has the own table; it belongs in the shards' o tables")
	}
	ss, err := OpenStatic(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(al.Owners()) == 0 {
		t.Fatal("the bundled aliases have no owners")
	}
	for adapter, vendor := range al.Owners() {
		name := fmt.Sprintf("search/s/%d.js", ss.shardOf(adapter))
		var sf shardFile
		if err := ss.read(name, "shard", &sf); err != nil {
			t.Fatal(err)
		}
		if sf.O[adapter] != vendor {
			t.Errorf("%s: o[%q] = %q, want %q", name, adapter, sf.O[adapter], vendor)
		}
	}
	for q, keep := range qualifierQueries {
		ss, err := OpenStatic(os.DirFS(dir))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ss.FirstQuery(q, 10); err != nil {
			t.Fatal(err)
		}
		loaded := map[int]bool{}
		for i := range ss.shards {
			loaded[i] = true
		}
		st, err := ss.static(loaded, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := hasVendorTerm(st.StaticTerms(Normalize(q))); got != keep {
			t.Errorf("%q: on the static site read back, vendor terms kept %v, want %v (%v)", q, got, keep, st.StaticTerms(Normalize(q)))
		}
	}
}

// TestStemMatchesGo: search.js stems a word no page has as the Go
// analyzer stems every word (the Porter stemmer bleve uses), over every
// word of the bundled pages and words made to reach each rule.
func TestStemMatchesGo(t *testing.T) {
	_, _, docs := loadBundled(t)
	seen := map[string]bool{}
	var words []string
	addWord := func(w string) {
		if isAlpha(w) && !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	for i := range docs {
		for _, f := range Fields {
			for _, r := range rawTokens(fieldText(&docs[i], f)) {
				addWord(r.text)
			}
		}
	}
	for _, w := range []string{"caresses", "ponies", "ties", "caress", "cats", "feed", "agreed", "plastered", "bled",
		"motoring", "sing", "conflated", "troubled", "sized", "hopping", "tanned", "falling", "hissing", "fizzed",
		"failing", "filing", "happy", "sky", "relational", "conditional", "rational", "valenci", "hesitanci",
		"digitizer", "conformabli", "radicalli", "differentli", "vileli", "analogousli", "vietnamization",
		"predication", "operator", "feudalism", "decisiveness", "hopefulness", "callousness", "formaliti",
		"sensitiviti", "sensibiliti", "triplicate", "formative", "formalize", "electriciti", "electrical",
		"hopeful", "goodness", "revival", "allowance", "inference", "airliner", "gyroscopic", "adjustable",
		"defensible", "irritant", "replacement", "adjustment", "dependent", "adoption", "homologou",
		"communism", "activate", "angulariti", "homologous", "effective", "bowdlerize", "probate", "rate",
		"cease", "controll", "roll", "generalizations", "oscillators", "yay", "ay", "sy", "déjà", "façades"} {
		addWord(w)
	}
	var js map[string]string
	runHarness(t, t.TempDir(), words, "stem", &js)
	bad := 0
	for _, w := range words {
		if want := stem(w); js[w] != want {
			if bad++; bad <= 20 {
				t.Errorf("%q: search.js stems to %q, Go to %q", w, js[w], want)
			}
		}
	}
	t.Logf("%d words, %d stemmed otherwise", len(words), bad)
}
