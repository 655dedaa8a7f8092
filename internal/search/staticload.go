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
	N       int                 `json:"n"`
	FG      int                 `json:"fg"`
	Shards  []string            `json:"shards"`
	Groups  [][4]int            `json:"groups"`
	Kinds   []string            `json:"kinds"`
	Vendors []string            `json:"vendors"`
	Langs   []string            `json:"langs"`
	Tpl     [][]any             `json:"tpl"`
	FWL     map[string][]string `json:"fwl"`
}

type shardFile struct {
	S map[string][]any      `json:"s"`
	C map[string][][]string `json:"c"`
	P map[string]string     `json:"p"`
	H map[string]int        `json:"h"`
	O map[string]string     `json:"o"`
	E map[string][]int32    `json:"e"`
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
// the query's raw tokens, their compact forms and parts, the shards of its
// tokens' terms (whose o tables say which vendor tokens only qualify an
// adapter and are dropped), for a short query with an unknown token the
// fuzzy names and the shards of the corrected query, and the fragment
// files of the results; and the docs it ranks first.
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
	// terms loads what analyzing text needs: the shards of its raw
	// tokens and parts, then those of its tokens' terms, before the
	// qualifiers are dropped (the drop reads their o tables).
	terms := func(text string) (*Static, error) {
		var keys []string
		raws := rawTokens(cjkExpand(text))
		for _, r := range raws {
			keys = append(keys, r.text, compact(r.text))
		}
		for _, r := range raws {
			for _, p := range splitParts(r.text) {
				if p != "" {
					keys = append(keys, p)
				}
			}
		}
		keys = append(keys, nameKeys(raws)...)
		if err := need(keys); err != nil {
			return nil, err
		}
		st, err := ss.static(loaded, nil)
		if err != nil {
			return nil, err
		}
		keys = keys[:0]
		for _, t := range st.staticTokens(text) {
			keys = append(keys, t.Term)
		}
		if err := need(keys); err != nil {
			return nil, err
		}
		return ss.static(loaded, nil)
	}
	text := Normalize(q)
	st, err := terms(text)
	if err != nil {
		return nil, nil, err
	}
	if len(unknownTokens(text, st.known)) > 0 {
		// A token is unknown: load the names, and what the corrected
		// query needs.
		files = append(files, "search/fuzzy.js")
		var fz [][2]string
		if err := ss.read("search/fuzzy.js", "fuzzy", &fz); err != nil {
			return nil, nil, err
		}
		names := make([]FuzzyName, len(fz))
		for i, f := range fz {
			names[i] = newFuzzyName(f[0], f[1])
		}
		if c := correct(text, names, st.known); c != "" {
			if _, err := terms(c); err != nil {
				return nil, nil, err
			}
		}
		if st, err = ss.static(loaded, names); err != nil {
			return nil, nil, err
		}
	}
	res := st.SearchAll(Query{Text: q, Limit: limit})
	seen := map[int]bool{}
	for _, h := range res.Hits {
		top = append(top, h.Doc)
		if g := h.Doc / ss.man.FG; !seen[g] {
			seen[g] = true
			files = append(files, "search/f/"+strconv.Itoa(g)+".js")
		}
	}
	return files, top, nil
}

// static is a Static that holds just the loaded shards' entries (the
// owners of dropQualifiers too), with the manifest's docs (kinds, vendors,
// languages, no text) and templates: it analyzes and ranks as search.js
// does with those files.
func (ss *StaticSite) static(loaded map[int]bool, names []FuzzyName) (*Static, error) {
	st := &Static{surf: map[string][]QueryTerm{}, multi: map[string][]phrase{}, post: map[string][]posting{},
		hosts: map[string]bool{}, fuzzy: names, byURL: map[string]int{}, n: ss.man.N, docs: make([]Doc, ss.man.N), own: map[string]string{},
		fwLine: ss.man.FWL, entity: map[string][]int32{}}
	for gi, g := range ss.man.Groups {
		end := ss.man.N
		if gi+1 < len(ss.man.Groups) {
			end = ss.man.Groups[gi+1][0]
		}
		for d := g[0]; d < end; d++ {
			st.docs[d] = Doc{Kind: ss.man.Kinds[g[1]], Vendor: ss.man.Vendors[g[2]], Lang: ss.man.Langs[g[3]]}
		}
	}
	st.bilingual = bilingualKinds(st.docs)
	for _, t := range ss.man.Tpl {
		if len(t) != 6 {
			continue
		}
		d, _ := t[1].(float64)
		u, _ := t[4].(string)
		st.byURL[u] = int(d)
		st.docs[int(d)].URL = u
		loc, _ := t[5].(map[string]any)
		for _, v := range loc {
			if pair, ok := v.([]any); ok && len(pair) == 2 {
				ld, _ := pair[0].(float64)
				lu, _ := pair[1].(string)
				st.byURL[lu] = int(ld)
				st.docs[int(ld)].URL = lu
			}
		}
	}
	for i := range loaded {
		sf := ss.shards[i]
		for k, flat := range sf.S {
			var qts []QueryTerm
			for j := 0; j+1 < len(flat); j += 2 {
				term, _ := flat[j].(string)
				kind, _ := flat[j+1].(float64)
				qts = append(qts, QueryTerm{Term: term, Kind: Kind(kind), Weight: KindWeight[int(kind)]})
			}
			st.surf[k] = qts
		}
		for k, list := range sf.C {
			for _, l := range list {
				if len(l) > 1 {
					st.multi[k] = append(st.multi[k], phrase{Canon: l[0], Rest: l[1:]})
				}
			}
		}
		for k, str := range sf.P {
			ps, err := decodePostings(str)
			if err != nil {
				return nil, fmt.Errorf("postings of %q: %v", k, err)
			}
			st.post[k] = ps
		}
		for k := range sf.H {
			st.hosts[k] = true
		}
		for k, v := range sf.O {
			st.own[k] = v
		}
		for k, ds := range sf.E {
			st.entity[k] = ds
		}
	}
	return st, nil
}

// decodePostings reverses appendPostings.
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
		out = append(out, posting{doc: int32(doc), code: int32(code)})
	}
	return out, nil
}
