package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// StaticSite reads a built static index the way search.js does, to report
// what a browser loads for a query (FirstQuery) without a browser.
type StaticSite struct {
	fsys   fs.FS
	man    staticManifest
	shards map[int]*shardFile
}

type staticManifest struct {
	N      int      `json:"n"`
	FG     int      `json:"fg"`
	Shards []string `json:"shards"`
}

type shardFile struct {
	S map[string][]any      `json:"s"`
	C map[string][][]string `json:"c"`
	P map[string]string     `json:"p"`
}

// OpenStatic reads search/manifest.js of the site in fsys.
func OpenStatic(fsys fs.FS) (*StaticSite, error) {
	ss := &StaticSite{fsys: fsys, shards: map[int]*shardFile{}}
	if err := ss.read("search/manifest.js", "manifest", &ss.man); err != nil {
		return nil, err
	}
	if ss.man.FG <= 0 || len(ss.man.Shards) == 0 {
		return nil, fmt.Errorf("search/manifest.js: no shards or fragment group size (an index older than v2?)")
	}
	return ss, nil
}

// read decodes the JSON argument of a rocekbSearch.fn(…) file.
func (ss *StaticSite) read(name, fn string, v any) error {
	data, err := fs.ReadFile(ss.fsys, name)
	if err != nil {
		return err
	}
	body, ok := bytes.CutPrefix(data, []byte("rocekbSearch."+fn+"("))
	if !ok {
		return fmt.Errorf("%s:1:1: not a rocekbSearch.%s file", name, fn)
	}
	if i := bytes.IndexByte(body, '{'); fn != "manifest" && i >= 0 {
		body = body[i:] // the shard number and comma
	}
	body = bytes.TrimSuffix(bytes.TrimSpace(body), []byte(");"))
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s:1:1: %v", name, err)
	}
	return nil
}

func (ss *StaticSite) shardOf(key string) int {
	// The last shard whose first key is <= key, as search.js finds it.
	i := sort.Search(len(ss.man.Shards), func(i int) bool { return ss.man.Shards[i] > key }) - 1
	return max(i, 0)
}

// FirstQuery returns the files search.js loads, in order, to show the
// first limit results of q in a fresh page: the manifest, the shards of
// the query's raw tokens and parts, the shards of its terms, and the
// fragment files of the results; and the docs it ranks first.
func (ss *StaticSite) FirstQuery(q string, limit int) (files []string, top []int, err error) {
	files = []string{"search/manifest.js"}
	loaded := map[int]bool{}
	need := func(keys []string) error {
		var add []int
		for _, k := range keys {
			if i := ss.shardOf(k); !loaded[i] {
				loaded[i] = true
				add = append(add, i)
			}
		}
		sort.Ints(add)
		for _, i := range add {
			name := "search/s/" + strconv.Itoa(i) + ".js"
			files = append(files, name)
			if ss.shards[i] == nil {
				sf := &shardFile{}
				if err := ss.read(name, "shard", sf); err != nil {
					return err
				}
				ss.shards[i] = sf
			}
		}
		return nil
	}
	raws := rawTokens(q)
	var keys []string
	for _, r := range raws {
		keys = append(keys, r.text)
	}
	for _, r := range raws {
		for _, p := range splitParts(r.text) {
			if p != "" {
				keys = append(keys, p)
			}
		}
	}
	if err := need(keys); err != nil {
		return nil, nil, err
	}
	// A Static holding just the loaded entries analyzes as search.js does.
	st := &Static{surf: map[string][]QueryTerm{}, multi: map[string][]phrase{}}
	for i := range loaded {
		for k, flat := range ss.shards[i].S {
			var qts []QueryTerm
			for j := 0; j+1 < len(flat); j += 2 {
				term, _ := flat[j].(string)
				kind, _ := flat[j+1].(float64)
				qts = append(qts, QueryTerm{Term: term, Kind: Kind(kind), Weight: KindWeight[int(kind)]})
			}
			st.surf[k] = qts
		}
		for k, list := range ss.shards[i].C {
			for _, l := range list {
				if len(l) > 1 {
					st.multi[k] = append(st.multi[k], phrase{Canon: l[0], Rest: l[1:]})
				}
			}
		}
	}
	qts := st.StaticTerms(q)
	keys = keys[:0]
	for _, t := range qts {
		keys = append(keys, t.Term)
	}
	if err := need(keys); err != nil {
		return nil, nil, err
	}
	score, count := map[int]float64{}, map[int]int{}
	for _, t := range qts {
		str := ss.shards[ss.shardOf(t.Term)].P[t.Term]
		ps, err := decodePostings(str)
		if err != nil {
			return nil, nil, fmt.Errorf("postings of %q: %v", t.Term, err)
		}
		for _, p := range ps {
			score[p.doc] += t.Weight * p.w
			count[p.doc]++
		}
	}
	type hit struct {
		doc   int
		score float64
	}
	var hits []hit
	for d, sc := range score {
		hits = append(hits, hit{d, sc * float64(count[d]) / float64(len(qts))})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].doc < hits[j].doc
	})
	seen := map[int]bool{}
	for i := 0; i < len(hits) && i < limit; i++ {
		top = append(top, hits[i].doc)
		if g := hits[i].doc / ss.man.FG; !seen[g] {
			seen[g] = true
			files = append(files, "search/f/"+strconv.Itoa(g)+".js")
		}
	}
	return files, top, nil
}

// decodePostings reverses encodePostings.
func decodePostings(s string) ([]posting, error) {
	var out []posting
	doc := 0
	for i := 0; i < len(s); {
		d, mul := 0, 1
		for {
			if i >= len(s) {
				return nil, fmt.Errorf("cut short at %d", i)
			}
			c := strings.IndexByte(b64, s[i])
			i++
			if c < 0 {
				return nil, fmt.Errorf("byte %q at %d is not a digit", s[i-1], i-1)
			}
			if c < 32 {
				d += c * mul
				break
			}
			d += (c - 32) * mul
			mul *= 32
		}
		doc += d
		if i+3 > len(s) {
			return nil, fmt.Errorf("cut short at %d", i)
		}
		code := 0
		for _, c := range []byte(s[i : i+3]) {
			code = code*64 + strings.IndexByte(b64, c)
		}
		i += 3
		out = append(out, posting{doc: doc, w: float64(code%10000) / pow10[code/10000], code: code})
	}
	return out, nil
}
