package search

import (
	"fmt"
	"slices"
	"sort"
	"sync/atomic"
)

// incState is what a kept static index (NewStaticReusing) holds, so
// that the next build, when only some documents' text changed (kbgen
// serve's rebuild after an edit), updates the index for those documents
// (Static.update) and writes only the files they change (KeyedOutputs),
// instead of analyzing, weighing and encoding every document again.
type incState struct {
	keep     bool // the index is kept: its outputs have keys
	al       *Aliases
	stats    []*docStats      // each document's analysis, by doc number
	df       []map[string]int // per field, term → documents holding it
	rawN     map[string]int   // raw token → documents yielding it
	aliasRaw map[string]bool  // the aliases' words, raw tokens of the index too

	// unchanged: the last update found every document as it was.
	unchanged bool

	// What the last outputs wrote, and what changed since.
	fresh        bool              // nothing written yet: every output is new
	keys         []string          // the shards' keys, sorted
	size         map[string]int    // a key's share of its shard's size (keySize)
	dirty        map[string]bool   // keys whose entries changed, appeared or went
	frags        map[int]bool      // fragment groups whose documents changed
	fuzzyChanged bool              // the fuzzy names changed
	spans        []shardSpan       // the shards written last
	firsts       []string          // their first keys
	outKeys      map[string]string // output path → the key it was written with
}

// outputGen numbers the outputs of static indexes: a file's key is the
// number of the outputs call that last changed its bytes.
var outputGen atomic.Int64

// Unchanged reports whether this index is the one kept from the
// build before, with the same aliases and documents: its files are the
// ones that build wrote.
func (s *Static) Unchanged() bool { return s.inc != nil && s.inc.unchanged }

// update brings s, which was kept, up to date with docs (sorted), and
// reports whether it could: the documents must be the same pages in the
// same order with the same facets, and few of them changed. The result is
// the index newStatic makes of docs: postings are weighed by the same
// function from the same analyses and document frequencies.
func (s *Static) update(docs []Doc) bool {
	inc := s.inc
	if inc == nil || len(docs) != s.n {
		return false
	}
	var changed []int
	fuzzy := false
	for i := range docs {
		o, d := &s.docs[i], &docs[i]
		if o.URL != d.URL || o.Kind != d.Kind || o.Vendor != d.Vendor || o.Lang != d.Lang {
			return false
		}
		if o.Title != d.Title || !slices.Equal(o.IDs, d.IDs) {
			fuzzy = true
		} else if o.Body == d.Body && slices.Equal(o.Headings, d.Headings) {
			continue
		}
		changed = append(changed, i)
	}
	// Many changes (a matrix edit renames every adapter's documents) are
	// cheaper to build afresh.
	if len(changed) > max(32, s.n/20) {
		return false
	}
	s.docs = docs
	inc.unchanged = len(changed) == 0
	if len(changed) == 0 {
		return true
	}
	if inc.dirty == nil {
		inc.dirty, inc.frags = map[string]bool{}, map[int]bool{}
	}
	isChanged := make(map[int]bool, len(changed))
	olds := make([]*docStats, len(changed))
	for j, i := range changed {
		isChanged[i] = true
		olds[j] = inc.stats[i]
		inc.stats[i] = analyzeDoc(&s.docs[i], s.an)
		inc.frags[i/fragmentGroup] = true
	}

	// Document frequencies: a term's weight in every document holding it
	// changes with them.
	terms, dfChanged := map[string]bool{}, map[string]bool{}
	for j, i := range changed {
		o, n := olds[j], inc.stats[i]
		for _, ot := range o.terms {
			t := ot.term
			terms[t] = true
			nt, _ := n.term(t)
			for f, tf := range ot.tf {
				if tf > 0 && nt.tf[f] == 0 {
					if inc.df[f][t]--; inc.df[f][t] == 0 {
						delete(inc.df[f], t)
					}
					dfChanged[t] = true
				}
			}
		}
		for _, nt := range n.terms {
			t := nt.term
			terms[t] = true
			ot, _ := o.term(t)
			for f, tf := range nt.tf {
				if tf > 0 && ot.tf[f] == 0 {
					inc.df[f][t]++
					dfChanged[t] = true
				}
			}
		}
	}
	// The postings of every term a changed document held or holds: the
	// changed documents' are weighed again (their norms changed), and all
	// of a term whose document frequency changed; the rest are kept.
	for t := range terms {
		var with []int // changed documents holding t, ascending
		for _, i := range changed {
			if _, ok := inc.stats[i].term(t); ok {
				with = append(with, i)
			}
		}
		old := s.post[t]
		next := make([]posting, 0, len(old)+len(with))
		k := 0
		for _, p := range old {
			d := int(p.doc)
			if isChanged[d] {
				continue
			}
			for ; k < len(with) && with[k] < d; k++ {
				next = append(next, s.posting(with[k], inc.stats[with[k]], inc.df, t))
			}
			if dfChanged[t] {
				p = s.posting(d, inc.stats[d], inc.df, t)
			}
			next = append(next, p)
		}
		for ; k < len(with); k++ {
			next = append(next, s.posting(with[k], inc.stats[with[k]], inc.df, t))
		}
		if len(next) == 0 {
			delete(s.post, t)
		} else {
			s.post[t] = next
		}
		inc.dirty[t] = true
	}

	// Raw tokens: one no document yields any more (nor an alias) leaves
	// the s table; a new one enters it.
	before := map[string]int{}
	count := func(r string, d int) {
		if _, ok := before[r]; !ok {
			before[r] = inc.rawN[r]
		}
		inc.rawN[r] += d
	}
	for j, i := range changed {
		for _, r := range olds[j].raws {
			count(r, -1)
		}
		for _, r := range inc.stats[i].raws {
			count(r, 1)
		}
	}
	for r, b := range before {
		a := inc.rawN[r]
		if a == 0 {
			delete(inc.rawN, r)
		}
		was, is := b > 0 || inc.aliasRaw[r], a > 0 || inc.aliasRaw[r]
		if was == is || isCJK(r) {
			continue
		}
		if is {
			qts := queryTerms(s.an.Analyze(r))
			s.surf[r] = qts
			for _, t := range qts {
				rs := s.rev[t.Term]
				at, _ := slices.BinarySearch(rs, r)
				s.rev[t.Term] = slices.Insert(rs, at, r)
				inc.dirty[t.Term] = true
			}
		} else {
			for _, t := range s.surf[r] {
				rs := s.rev[t.Term]
				if at, ok := slices.BinarySearch(rs, r); ok {
					rs = slices.Delete(rs, at, at+1)
				}
				if len(rs) == 0 {
					delete(s.rev, t.Term)
				} else {
					s.rev[t.Term] = rs
				}
				inc.dirty[t.Term] = true
			}
			delete(s.surf, r)
		}
		inc.dirty[r] = true
	}

	// The terms that name a host read every knowledge document.
	if slices.Contains(s.kinds, "host") {
		hosts := hostTerms(s.an, s.docs)
		for k := range hosts {
			if !s.hosts[k] {
				inc.dirty[k] = true
			}
		}
		for k := range s.hosts {
			if !hosts[k] {
				inc.dirty[k] = true
			}
		}
		s.hosts = hosts
	}
	if fuzzy {
		if f := fuzzyNames(s.docs, inc.al); !slices.Equal(f, s.fuzzy) {
			s.fuzzy, inc.fuzzyChanged = f, true
		}
	}
	return true
}

// keyer gives the outputs of one outputs call their keys.
type keyer struct {
	inc *incState
	gen string
}

func (inc *incState) begin() keyer {
	return keyer{inc, fmt.Sprintf("search %d", outputGen.Add(1))}
}

// key is the key of the output at path: the one it was written with when
// it did not change since, else this call's.
func (k keyer) key(path string, changed bool) string {
	inc := k.inc
	if !inc.keep {
		return ""
	}
	if old, ok := inc.outKeys[path]; ok && !changed && !inc.fresh {
		return old
	}
	if inc.outKeys == nil {
		inc.outKeys = map[string]string{}
	}
	inc.outKeys[path] = k.gen
	return k.gen
}

// end ends an outputs call: what changed has been written.
func (inc *incState) end(ok *bool) {
	if !*ok {
		inc.fresh = true // keys of this call may name bytes not written
		return
	}
	inc.fresh, inc.fuzzyChanged = false, false
	clear(inc.dirty)
	clear(inc.frags)
}

// sortedKeys are the shards' keys, sorted: every raw token, phrase start,
// term and adapter term with an owner.
func (inc *incState) sortedKeys(s *Static) []string {
	exists := func(k string) bool {
		if k == "" {
			return false // a split's empty part has no terms
		}
		_, a := s.surf[k]
		_, b := s.multi[k]
		_, c := s.post[k]
		_, d := s.own[k]
		_, e := s.entity[k]
		return a || b || c || d || e
	}
	if inc.keys == nil || inc.fresh {
		seen := map[string]bool{}
		var keys []string
		add := func(k string) {
			if k != "" && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		for k := range s.surf {
			add(k)
		}
		for k := range s.multi {
			add(k)
		}
		for k := range s.post {
			add(k)
		}
		for k := range s.own {
			add(k)
		}
		for k := range s.entity {
			add(k)
		}
		sort.Strings(keys)
		inc.keys = keys
		return keys
	}
	for k := range inc.dirty {
		at, found := slices.BinarySearch(inc.keys, k)
		switch e := exists(k); {
		case e && !found:
			inc.keys = slices.Insert(inc.keys, at, k)
		case !e && found:
			inc.keys = slices.Delete(inc.keys, at, at+1)
		}
	}
	return inc.keys
}

// keySize is Static.keySize, remembered until the key changes.
func (inc *incState) keySize(s *Static, k string) int {
	if n, ok := inc.size[k]; ok && !inc.dirty[k] && !inc.fresh {
		return n
	}
	n := s.keySize(k)
	if inc.keep {
		if inc.size == nil {
			inc.size = map[string]int{}
		}
		inc.size[k] = n
	}
	return n
}

// changedShards reports, per shard of spans, whether its file may differ
// from the one the last outputs wrote: a shard with the same first key
// and number of keys, none of them changed, added or removed, is the same.
func (inc *incState) changedShards(spans []shardSpan, firsts []string) []bool {
	changed := make([]bool, len(spans))
	for n, sp := range spans {
		changed[n] = inc.fresh || !inc.keep || n >= len(inc.spans) || inc.firsts[n] != firsts[n] ||
			inc.spans[n].end-inc.spans[n].first != sp.end-sp.first
	}
	for k := range inc.dirty {
		if len(changed) == 0 {
			break
		}
		at := sort.SearchStrings(firsts, k)
		if at == len(firsts) || firsts[at] != k {
			at--
		}
		changed[max(at, 0)] = true
	}
	return changed
}

func (inc *incState) fragChanged(g int) bool { return inc.fresh || !inc.keep || inc.frags[g] }
