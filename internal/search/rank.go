package search

import (
	"slices"
	"sort"
	"strings"
)

// KindBoost weighs a page by its kind, after the text score: the pages
// that answer a question (FAQ and trees) and the adapter pages rank above
// the glossary and vendor pages that merely name the same things. Both
// engines multiply by it (the static index through its manifest), and
// docs/reference.md lists it; TestKindBoostDocumented insists.
var KindBoost = map[string]float64{
	"faq": 1.3, "tree": 1.3, "adapter": 1.2, "driver": 1.1, "stack": 1, "distro": 1, "vendor": 0.7, "glossary": 0.7,
	"host": 1,
}

// EntityBoost weighs the page of a thing a query names by its id (an
// adapter, driver, stack or distro: the id itself, or an alias, part
// number or PCI id that stands for it), by the page's kind: the page of
// bnxt_re, not the FAQ pages that mention it most, answers
// "CONFIG_INFINIBAND_BNXT_RE" or "bnxt_re". An adapter or driver page
// counts 2: a term's score counts the fields that hold it (bleve's coord
// over title, ids, headings and body), and those pages have no heading
// that names them, so an FAQ titled with several drivers ("… bnxt_re "cmdq
// … timedout", irdma, hns, qedr") outranked the bnxt_re page at 1.5. A
// stack or distro page counts 1.5: a query names a stack in passing
// ("uninstall MLNX_OFED", "rdma_rxe" naming SoftRoCE) more often than it
// asks about its page. A driver page counts 8/3, 2 × 4/3: only FAQ
// documents have a headings field, so a term matches a driver page in
// at most three of the four fields (title, ids, body) where an FAQ page
// that also heads a section with it matches in four, and the field coord
// (matched fields / 4) held the driver page to 3/4 of such a page: "irdma"
// ranked the ice DDP FAQ (irdma in its title, ids, a heading and the
// body; every ice there also counts as irdma, an Ethernet module being an
// alias of its RDMA driver) above the irdma page. Adapters stay at 2:
// 8/3 for them too took q9's MRR from 0.824 to 0.813 and q11's from
// 0.695 to 0.682 (erdma and efa then found the adapter pages). Both
// engines multiply by it (the static index through the e tables of its
// shards and its manifest's eb by kind).
var EntityBoost = map[string]float64{"adapter": 2, "driver": 8.0 / 3, "stack": 1.5, "distro": 2}

// entityBoost is EntityBoost[kind], 1 for a kind it does not list.
func entityBoost(kind string) float64 {
	if b, ok := EntityBoost[kind]; ok {
		return b
	}
	return 1
}

// entityKinds are the kinds whose pages are each the page of one matrix
// thing, at <kind>/<id>.html. A vendor page lists what a vendor makes and
// a glossary entry defines a word: naming them is no question about them.
var entityKinds = []string{"adapter", "driver", "stack", "distro"}

// entityOf returns the id of the thing d is the page of, or "".
func entityOf(d *Doc) string {
	if !slices.Contains(entityKinds, d.Kind) {
		return ""
	}
	id, ok := strings.CutPrefix(d.URL, d.Kind+"/")
	if !ok {
		return ""
	}
	if id, ok = strings.CutSuffix(id, ".html"); !ok || id == "" || strings.ContainsAny(id, "/#?") {
		return ""
	}
	return id
}

// entities maps the id of each thing with a page to the docs that are its
// page.
func entities(docs []Doc) map[string][]int32 {
	out := map[string][]int32{}
	for i := range docs {
		if id := entityOf(&docs[i]); id != "" {
			out[id] = append(out[id], int32(i))
		}
	}
	return out
}

// namedDocs returns the docs that are the page of a thing qts name by a
// term of their own (not an identifier's part or a bare number).
func namedDocs(qts []QueryTerm, ent map[string][]int32) map[int32]bool {
	var out map[int32]bool
	for _, t := range qts {
		if !mainTerm(t.Kind) {
			continue
		}
		for _, d := range ent[t.Term] {
			if out == nil {
				out = map[int32]bool{}
			}
			out[d] = true
		}
	}
	return out
}

// OtherLanguage weighs a page written in another language than the
// query's: a query with Chinese (CJK) text prefers the pages in a CJK
// language (zh, ja, ko), any other query the rest, so the English and the
// Chinese version of one answer, which share its commands and log lines,
// each rank first for their readers. It weighs only pages of a kind that
// is written in both (bilingualKinds): an adapter, driver or glossary page
// has no Chinese version, and is the page a Chinese query naming the
// adapter, the module or the term asks for.
const OtherLanguage = 0.3

// cjkLangs are the page languages written in CJK script.
var cjkLangs = map[string]bool{"zh": true, "ja": true, "ko": true}

// langBoost is 1 for a page in the query's script or of a kind written in
// one script only (bilingual false), else OtherLanguage.
func langBoost(lang string, bilingual, cjkQuery bool) float64 {
	if !bilingual || cjkLangs[lang] == cjkQuery {
		return 1
	}
	return OtherLanguage
}

// bilingualKinds are the page kinds that have pages both in a CJK language
// and in another one: the kinds whose pages OtherLanguage weighs.
func bilingualKinds(docs []Doc) map[string]bool {
	seen := map[string][2]bool{}
	for i := range docs {
		s := seen[docs[i].Kind]
		if cjkLangs[docs[i].Lang] {
			s[1] = true
		} else {
			s[0] = true
		}
		seen[docs[i].Kind] = s
	}
	out := map[string]bool{}
	for k, s := range seen {
		if s[0] && s[1] {
			out[k] = true
		}
	}
	return out
}

// queryCJK reports whether a query prefers pages written in CJK script: it
// has CJK text, and when that text is Japanese (it has kana) the site has
// Japanese pages. A Japanese query on a site without them ("RoCE の設定")
// matches by its other words, on pages in English as much as in Chinese,
// so it reads the English ones first, as a query without CJK text does.
func queryCJK(q string, ja bool) bool {
	return hasCJK(q) && (ja || !strings.ContainsFunc(q, isKana))
}

// isKana reports whether r is hiragana or katakana, which Japanese writes
// and Chinese does not.
func isKana(r rune) bool { return r >= 0x3040 && r <= 0x30ff }

// hasLang reports whether any document is in lang.
func hasLang(docs []Doc, lang string) bool {
	for i := range docs {
		if docs[i].Lang == lang {
			return true
		}
	}
	return false
}

// hasCJK reports whether a query has CJK text.
func hasCJK(q string) bool {
	for _, r := range rawTokens(q) {
		if isCJK(r.text) {
			return true
		}
	}
	return false
}

// Tiers order results before scores do: the pages a line template says
// explain the query first, then the knowledge pages, then the host
// reports — unless the query names a host, when its reports rank with the
// knowledge pages by score.
const (
	tierExplained = 0
	tierKnowledge = 1
	tierHost      = 2
)

// docBoost is what a document's text score is multiplied by: its kind's
// boost and its language's for a query in CJK or other text, looked up
// once per document when the index is built, not per match.
type docBoost struct {
	kind float64
	lang [2]float64 // by whether the query has CJK text
}

func boostOf(d *Doc, bilingual map[string]bool) docBoost {
	b := bilingual[d.Kind]
	return docBoost{kind: kindBoost(d.Kind), lang: [2]float64{langBoost(d.Lang, b, false), langBoost(d.Lang, b, true)}}
}

// score is a text score weighed by the boosts.
func (b docBoost) score(text float64, cjk bool) float64 {
	l := b.lang[0]
	if cjk {
		l = b.lang[1]
	}
	return text * b.kind * l
}

// kindBoost is KindBoost[kind], 1 for a kind it does not list.
func kindBoost(kind string) float64 {
	if b, ok := KindBoost[kind]; ok {
		return b
	}
	return 1
}

// ranked is one result before the final order.
type ranked struct {
	doc   int
	tier  int
	score float64
}

// tierOf is the tier of a doc of kind k.
func tierOf(kind string, explained, namesHost bool) int {
	switch {
	case explained:
		return tierExplained
	case kind == "host" && !namesHost:
		return tierHost
	}
	return tierKnowledge
}

// before reports whether a comes before b in the final order: tier, then
// score (text score × kind boost), then doc number.
func before(a, b ranked) bool {
	switch {
	case a.tier != b.tier:
		return a.tier < b.tier
	case a.score != b.score:
		return a.score > b.score
	}
	return a.doc < b.doc
}

// sortRanked puts results in their final order.
func sortRanked(rs []ranked) {
	sort.Slice(rs, func(i, j int) bool { return before(rs[i], rs[j]) })
}

// topRanked keeps the first k results of those added, in the final order.
// A query may match most pages and a page shows ten: a heap holds the best
// k seen, with the last of them at its root, and only those k are sorted.
type topRanked struct {
	k int
	h []ranked
}

func (t *topRanked) add(r ranked) {
	switch {
	case len(t.h) < t.k:
		t.h = append(t.h, r)
		if len(t.h) == t.k {
			for i := t.k/2 - 1; i >= 0; i-- {
				siftDown(t.h, i)
			}
		}
	case t.k > 0 && before(r, t.h[0]):
		t.h[0] = r
		siftDown(t.h, 0)
	}
}

// sorted returns the results kept, in the final order.
func (t *topRanked) sorted() []ranked {
	sortRanked(t.h)
	return t.h
}

// siftDown restores the heap below i, whose every parent comes after its
// children in the final order.
func siftDown(h []ranked, i int) {
	for {
		last := i
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < len(h) && before(h[last], h[c]) {
				last = c
			}
		}
		if last == i {
			return
		}
		h[i], h[last] = h[last], h[i]
		i = last
	}
}

// hostTerms are the terms that name a host: the terms of a host report's
// title and identifiers (its id, kernel release, part numbers, versions)
// that no knowledge page has. A query with one of them asks about hosts,
// so their reports are not put after the knowledge pages.
func hostTerms(an *Analyzer, docs []Doc) map[string]bool {
	out := map[string]bool{}
	hasHost := false
	for i := range docs {
		if docs[i].Kind == "host" {
			hasHost = true
			break
		}
	}
	if !hasHost {
		return out
	}
	known := map[string]bool{}
	for i := range docs {
		d := &docs[i]
		if d.Kind == "host" {
			continue
		}
		for _, f := range Fields {
			for _, t := range an.Analyze(fieldText(d, f)) {
				known[t.Term] = true
			}
		}
	}
	for i := range docs {
		d := &docs[i]
		if d.Kind != "host" {
			continue
		}
		for _, f := range []string{"title", "ids"} {
			toks := an.Analyze(fieldText(d, f))
			// A token that is a matrix or glossary name (a part number, a
			// PCI id) is the knowledge pages' too, not the host's own.
			named := map[int]bool{}
			for _, t := range toks {
				if t.Kind == Alias {
					named[t.Pos] = true
				}
			}
			for _, t := range toks {
				if !known[t.Term] && !named[t.Pos] && KindWeight[t.Kind] > 0 {
					out[t.Term] = true
				}
			}
		}
	}
	return out
}

// namesHost reports whether a query term names a host.
func namesHost(qts []QueryTerm, hosts map[string]bool) bool {
	for _, t := range qts {
		if hosts[t.Term] {
			return true
		}
	}
	return false
}
