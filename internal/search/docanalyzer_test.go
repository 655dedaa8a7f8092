package search

import (
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// frozenTokens is Analyzer.tokens as it was before lexemes (494ddaa6),
// one raw token at a time with no table: the reference docAnalyzer's
// table of lexemes must agree with.
func frozenTokens(a *Analyzer, text string, raws []raw, yield func(Token)) {
	var here []string
	for i, r := range raws {
		pos := i + 1
		here = here[:0]
		emit := func(term string, k Kind, start, end int) {
			if term == "" || slices.Contains(here, term) {
				return
			}
			here = append(here, term)
			yield(Token{Term: term, Kind: k, Pos: pos, Start: start, End: end})
		}
		if isCJK(r.text) {
			off := r.start
			rs := []rune(text[r.start:r.end])
			if len(rs) == 1 {
				emit(r.text, CJK, r.start, r.end)
			}
			ends := make([]int, len(rs))
			for j, c := range rs {
				off += len(string(c))
				ends[j] = off
			}
			for j := 0; j+1 < len(rs); j++ {
				s := r.start
				if j > 0 {
					s = ends[j-1]
				}
				emit(strings.ToLower(string(rs[j:j+2])), CJK, s, ends[j+1])
			}
			zhSynonymsIn(rs, func(c string, i, j int) {
				s := r.start
				if i > 0 {
					s = ends[i-1]
				}
				cjkPairs(c, func(p string) { emit(p, CJK, s, ends[j-1]) })
			})
			continue
		}
		expand(r.text, func(term string, k Kind) { emit(term, k, r.start, r.end) })
		if a.Aliases != nil {
			for _, c := range a.Aliases.single[compact(r.text)] {
				emit(c, Alias, r.start, r.end)
			}
			var ps []phrase
			if i+1 < len(raws) {
				ps = a.Aliases.next[r.text][raws[i+1].text]
			}
			for _, p := range ps {
				if p.follows(raws, i) {
					emit(p.Canon, Alias, r.start, raws[i+len(p.Rest)].end)
				}
			}
		}
	}
}

// frozenAnalyzeDoc is analyzeDoc as it was before docAnalyzer (494ddaa6).
func frozenAnalyzeDoc(d *Doc, an *Analyzer) *docStats {
	st := &docStats{}
	seen := map[string]bool{}
	at := map[string]int{}
	for f, name := range Fields {
		text := fieldText(d, name)
		rs := rawTokens(text)
		n := 0
		frozenTokens(an, text, rs, func(t Token) {
			n++
			i, ok := at[t.Term]
			if !ok {
				i = len(st.terms)
				at[t.Term] = i
				st.terms = append(st.terms, termStats{term: t.Term})
			}
			st.terms[i].tf[f]++
		})
		if n > 0 {
			st.norms[f] = float64(float32(1 / math.Sqrt(float64(n))))
		}
		for _, r := range rs {
			if seen[r.text] {
				continue
			}
			seen[r.text] = true
			st.raws = append(st.raws, r.text)
			for _, p := range splitParts(r.text) {
				if !seen[p] {
					seen[p] = true
					st.raws = append(st.raws, p)
				}
			}
		}
	}
	slices.SortFunc(st.terms, func(a, b termStats) int { return strings.Compare(a.term, b.term) })
	return st
}

// TestDocAnalyzerMatchesFrozen holds one docAnalyzer, whose table of
// lexemes is warm after the first documents, to the frozen analysis on
// every bundled document and on each query of the query set read as a
// document's body; Analyze (a lexeme made afresh at each token) too.
func TestDocAnalyzerMatchesFrozen(t *testing.T) {
	_, al, docs := loadBundled(t)
	an := &Analyzer{Aliases: al}
	all := slices.Clone(docs)
	for _, q := range loadQueries(t).Query {
		all = append(all, Doc{Title: q.Q, Body: strings.ToUpper(q.Q) + "\n" + q.Q})
	}
	// Raw tokens whose lower case the raw token pattern cuts apart: Ɓ and
	// Ɛ are letters of it, ɓ and ɛ are not.
	all = append(all, Doc{Title: "xƁx ƐRROR", Body: "mlx5_ƐQ ƁAD-5 cx-ƐX"})
	// The frozen analysis of each document, made once: both passes are
	// held to it.
	frozen := make([]*docStats, len(all))
	for i := range all {
		frozen[i] = frozenAnalyzeDoc(&all[i], an)
	}
	da := newDocAnalyzer(an)
	// A one-off index's analyzer, its terms by number: each document's
	// read back through its names, and its document frequencies and
	// counts of documents held to the frozen analyses' after the first
	// pass.
	one := newDocAnalyzer(an)
	one.oneOff()
	df, held := map[string][numFields]int32{}, map[string]int32{}
	for pass := range 2 { // the second pass finds every lexeme in the table
		for i := range all {
			d := &all[i]
			got, want := da.analyze(d), frozen[i]
			if !reflect.DeepEqual(got.terms, want.terms) || got.norms != want.norms || !slices.Equal(got.raws, want.raws) {
				t.Fatalf("pass %d, %s %q: docAnalyzer's analysis differs from the frozen one:\n got %v\nwant %v", pass, d.URL, d.Title, got, want)
			}
			counted := one.count(d)
			named := &docStats{norms: counted.norms}
			for _, c := range counted.counts {
				named.terms = append(named.terms, termStats{term: one.names[c.id], tf: c.tf})
			}
			slices.SortFunc(named.terms, func(a, b termStats) int { return strings.Compare(a.term, b.term) })
			if counted.terms != nil || counted.raws != nil || !reflect.DeepEqual(named.terms, want.terms) || named.norms != want.norms {
				t.Fatalf("pass %d, %s %q: a one-off analysis differs from the frozen one:\n got %v\nwant %v", pass, d.URL, d.Title, named, want)
			}
			if pass > 0 {
				continue
			}
			for _, ts := range want.terms {
				n := df[ts.term]
				for f, tf := range ts.tf {
					if tf > 0 {
						n[f]++
					}
				}
				df[ts.term] = n
				held[ts.term]++
			}
		}
		if pass == 0 {
			got, gotHeld := map[string][numFields]int32{}, map[string]int32{}
			for id, n := range one.df {
				got[one.names[id]], gotHeld[one.names[id]] = n, one.held[id]
			}
			if !maps.Equal(got, df) || !maps.Equal(gotHeld, held) {
				t.Fatalf("a one-off analyzer's document frequencies differ from the frozen analyses' (%d terms, want %d)", len(got), len(df))
			}
		}
	}
	// A raw token's query terms read from its lexeme are Analyze's.
	for r, ts := range one.lexed {
		if got, want := lexedTerms(ts), queryTerms(an.Analyze(r)); !slices.Equal(got, want) {
			t.Fatalf("%q: query terms from its lexeme %v, Analyze's %v", r, got, want)
		}
	}
	if len(da.lex) < 1000 || len(one.lexed) < 1000 {
		t.Fatalf("%d lexemes in the table, %d raw tokens lexed, after %d documents: are they used?", len(da.lex), len(one.lexed), len(all))
	}
	for _, q := range loadQueries(t).Query {
		var want []Token
		raws := rawTokens(q.Q)
		frozenTokens(an, q.Q, raws, func(tk Token) { want = append(want, tk) })
		if got := an.Analyze(q.Q); !slices.Equal(got, want) {
			t.Fatalf("Analyze(%q) = %v, frozen %v", q.Q, got, want)
		}
	}
}

// FuzzDocAnalyzer holds docAnalyzer and Analyze to the frozen analysis
// on any text, with aliases of one and several tokens.
func FuzzDocAnalyzer(f *testing.F) {
	for _, s := range []string{
		"ConnectX-5 Ex on mlx5_core 16.35.2000 and CX-5",
		"mlx5_core 0000:3b:00.0: Port module event: module 0, Cable unplugged",
		"Mellanox Technologies MT28800 Family [ConnectX-5 Ex] 15b3:1019",
		"RoCEv2 的 GID 表 无法 找到 网卡",
		"5.1(2x) Intel(R) 1024B(MTU) rdma-core rdma core rdma core",
	} {
		f.Add(s)
	}
	al := NewAliases()
	al.Add("connectx-5", "ConnectX-5", "CX-5", "CX5")
	al.Add("connectx-5-ex", "ConnectX-5 Ex", "MT28800 Family")
	al.Add("rdma-core", "rdma core", "rdma-core")
	an := &Analyzer{Aliases: al}
	da := newDocAnalyzer(an)
	f.Fuzz(func(t *testing.T, s string) {
		d := &Doc{Title: s, Body: s + " " + strings.ToUpper(s), Headings: []string{s}}
		got, want := da.analyze(d), frozenAnalyzeDoc(d, an)
		if !reflect.DeepEqual(got.terms, want.terms) || got.norms != want.norms || !slices.Equal(got.raws, want.raws) {
			t.Fatalf("%q: got %v, want %v", s, got, want)
		}
		var toks []Token
		frozenTokens(an, s, rawTokens(s), func(tk Token) { toks = append(toks, tk) })
		if a := an.Analyze(s); !slices.Equal(a, toks) {
			t.Fatalf("Analyze(%q) = %v, frozen %v", s, a, toks)
		}
	})
}
