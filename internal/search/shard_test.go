package search

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// shardReference is shard as encoding/json writes it: the tables made
// as maps of the keys' entries and encoded by reflection, as the static
// index wrote them before shard appended them.
func shardReference(s *Static, n int, keys []string) []byte {
	type shardData struct {
		S map[string][]any      `json:"s,omitempty"`
		C map[string][][]string `json:"c,omitempty"`
		P map[string]string     `json:"p,omitempty"`
		R map[string][]string   `json:"r,omitempty"`
		H map[string]int        `json:"h,omitempty"`
		O map[string]string     `json:"o,omitempty"`
		E map[string][]int32    `json:"e,omitempty"`
	}
	cur := shardData{S: map[string][]any{}, C: map[string][][]string{}, P: map[string]string{}, R: map[string][]string{},
		H: map[string]int{}, O: map[string]string{}, E: map[string][]int32{}}
	for _, k := range keys {
		if e, ok := s.surf[k]; ok {
			flat := []any{}
			for _, t := range e {
				flat = append(flat, t.Term, int(t.Kind))
			}
			cur.S[k] = flat
		}
		for _, p := range s.multi[k] {
			cur.C[k] = append(cur.C[k], append([]string{p.Canon}, p.Rest...))
		}
		if ps, ok := s.post[k]; ok {
			cur.P[k] = string(appendPostings(nil, ps))
			cur.R[k] = s.rev[k]
			if s.hosts[k] {
				cur.H[k] = 1
			}
		}
		if v, ok := s.own[k]; ok {
			cur.O[k] = v
		}
		if ds, ok := s.entity[k]; ok {
			cur.E[k] = ds
		}
	}
	var out bytes.Buffer
	out.WriteString("rocekbSearch.shard(" + strconv.Itoa(n) + ",")
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cur); err != nil {
		panic(err)
	}
	out.Truncate(out.Len() - 1)
	out.WriteString(");\n")
	return out.Bytes()
}

// TestShardIsEncodingJSON: every shard of the bundled index, in runs of
// its keys, and shards of random tables (empty, nil and missing entries,
// strings encoding/json escapes) are byte for byte what encoding/json
// writes.
func TestShardIsEncodingJSON(t *testing.T) {
	st, _, _ := loadStatic(t)
	keys := (&incState{}).sortedKeys(st)
	for n := 0; n*40 < len(keys); n++ {
		run := keys[n*40 : min(len(keys), n*40+40)]
		if got, want := st.shard(n, run), shardReference(st, n, run); !bytes.Equal(got, want) {
			t.Fatalf("shard %d (keys %q…):\n got %s\nwant %s", n, run[0], got, want)
		}
	}
	for seed := range uint64(3000) {
		checkRandomShard(t, seed, "")
	}
}

// FuzzShardIsEncodingJSON is TestShardIsEncodingJSON's random shards
// with a string of the fuzzer's among their keys and values.
func FuzzShardIsEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "mlx5_core", "a\"b", `\`, "<&>", "\x00\x1f\x7f", "\xff", "\u2028\u2029", "世界"} {
		f.Add(uint64(1), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, s string) { checkRandomShard(t, seed, s) })
}

// checkRandomShard holds a shard of random tables, drawn from seed with
// extra among their strings, to shardReference.
func checkRandomShard(t *testing.T, seed uint64, extra string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 22))
	words := []string{"a", "cx6", "mlx5_core", "5.15", "x\"y", `back\slash`, "tab\tnl\n", "<b>&amp;", "\x01\x7f", "bad\xffutf8",
		"sep\u2028", "x\u2029y", "世界", "é", extra}
	word := func() string { return words[rng.IntN(len(words))] }
	list := func() []string {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		l := make([]string, 1+rng.IntN(3))
		for i := range l {
			l[i] = word()
		}
		return l
	}
	s := &Static{surf: map[string][]QueryTerm{}, multi: map[string][]phrase{}, post: map[string][]posting{}, rev: map[string][]string{},
		hosts: map[string]bool{}, own: map[string]string{}, entity: map[string][]int32{}}
	var keys []string
	for _, k := range words {
		if rng.IntN(4) == 0 {
			continue // not in this shard
		}
		keys = append(keys, k)
		if rng.IntN(2) == 0 {
			var qts []QueryTerm
			if rng.IntN(4) > 0 {
				qts = []QueryTerm{}
			}
			for range rng.IntN(3) {
				qts = append(qts, QueryTerm{Term: word(), Kind: Kind(rng.IntN(10))})
			}
			s.surf[k] = qts
		}
		if rng.IntN(3) == 0 {
			var ps []phrase
			for range rng.IntN(3) {
				ps = append(ps, phrase{Canon: word(), Rest: list()})
			}
			s.multi[k] = ps
		}
		if rng.IntN(2) == 0 {
			var ps []posting
			if rng.IntN(4) > 0 {
				ps = []posting{}
			}
			doc := 0
			for range rng.IntN(5) {
				doc += rng.IntN(5000)
				ps = append(ps, posting{doc: int32(doc), code: int32(rng.IntN(100000))})
			}
			s.post[k] = ps
			if l := list(); l != nil || rng.IntN(2) == 0 {
				s.rev[k] = l
			}
			s.hosts[k] = rng.IntN(3) == 0
		}
		if rng.IntN(4) == 0 {
			s.own[k] = word()
		}
		if rng.IntN(4) == 0 {
			var ds []int32
			if rng.IntN(4) > 0 {
				ds = []int32{}
			}
			for range rng.IntN(3) {
				ds = append(ds, int32(rng.IntN(10000)))
			}
			s.entity[k] = ds
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys) // extra may repeat a word
	if got, want := s.shard(int(seed%7), keys), shardReference(s, int(seed%7), keys); !bytes.Equal(got, want) {
		t.Fatalf("seed %d, extra %q:\n got %s\nwant %s", seed, extra, got, want)
	}
}

// TestWeightCodeIsExact: weightCode's product and rounding give the
// code strconv's digits give (weightCodeExact) for weights spread over
// every exponent, those a hair either side of a half and of a power of
// ten, and the ends.
func TestWeightCodeIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 40))
	var ws []float64
	for range 400000 {
		ws = append(ws, math.Pow(10, rng.Float64()*14-8))
	}
	for e := -9; e <= 5; e++ {
		for _, m := range []float64{1000, 1000.5, 1234.5, 5000.5, 9999, 9999.4999999, 9999.5, 9999.5000001, 10000} {
			for _, d := range []float64{-1e-12, -1e-15, 0, 1e-15, 1e-12} {
				w := (m + d) * math.Pow(10, float64(e-3))
				ws = append(ws, w, math.Nextafter(w, 0), math.Nextafter(w, 1e300))
			}
		}
	}
	ws = append(ws, 0, 1e-300, 1e300, math.SmallestNonzeroFloat64)
	for _, w := range ws {
		gc, gw := weightCode(w)
		wc, ww := weightCodeExact(w)
		if gc != wc || gw != ww {
			t.Fatalf("weightCode(%v) = %d, %v; strconv's digits give %d, %v", w, gc, gw, wc, ww)
		}
	}
}
