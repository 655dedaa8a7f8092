package search

import (
	"regexp"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Names a query reads that a document's analysis does not: people write
// a known name split, glued or inside another identifier, and a query is
// short enough to look at each way. All three engines read them alike:
// Analyzer.QueryTerms from the alias table, Static.StaticTerms and
// search.js from the surface table (the alias-kind terms of a key's own
// analysis, which is what the alias table gives through Analyze), the
// firmware lines from the manifest. After each position's own terms and
// phrases come, in this order:
//
//   - the names of runs of its identifier's parts: a known name inside
//     a longer identifier (bnxt_re in CONFIG_INFINIBAND_BNXT_RE, mlnx_ofed
//     in MLNX_OFED_LINUX-4.1-1.0.2.0-ubuntu14.04-x86_64, hns_roce in
//     hns-roce-hw-v2);
//   - the names of what follows a link speed written against it
//     (25GMCX4421A-ACQN, as a buyer's listing glues the speed to the part
//     number);
//   - the adapters of its firmware line, when it is a firmware version
//     (fwVersionPattern: 14.32.1010 is ConnectX-4 Lx firmware);
//   - the names of it and the next token written as one (Connect X6 as
//     ConnectX-6, Blue Field as BlueField).

// maxRun is the most parts a run joins: a name inside an identifier is
// a few of its parts (bnxt_re is two), and a query's long identifiers
// (an OFED package name has a dozen parts) stay cheap to read.
const maxRun = 4

// fwVersionPattern matches a firmware version of the form NVIDIA's lines
// use, major.minor.build with a two-digit minor and a four-digit build
// (16.35.2000); its leading number is the line (matrix firmware_line).
// Every firmware version the matrix gives an adapter of a line has this
// form (TestFirmwareVersionsHaveLineForm); an Ubuntu release (20.04), a
// kernel (5.14.0) or an OFED release (5.8-1.1.2.1) does not. Plain syntax
// shared with JavaScript.
const fwVersionPattern = `^0*(\d+)\.\d{2}\.\d{4}$`

var fwVersionRe = regexp.MustCompile(fwVersionPattern)

// gluedPattern matches a raw token that is a link speed written against a
// model: digits and g, then letters and a digit (25gmcx4421a-acqn); the
// model is its submatch. A speed alone (25gbe, 10gbase-t) has no digit
// after its letters. Plain syntax shared with JavaScript.
const gluedPattern = `^\d+g([a-z]+\d.*)$`

var gluedRe = regexp.MustCompile(gluedPattern)

// gluedKey is the compact key of the model a link speed is written
// against in raw token t, or "".
func gluedKey(t string) string {
	if m := gluedRe.FindStringSubmatch(t); m != nil {
		return compact(m[1])
	}
	return ""
}

// runKeys yields the compact keys of the runs of raw token t's parts: two
// to maxRun consecutive parts, not all of them, with a letter, from the
// first part on, shortest first; with singles, before a part's runs, the
// part alone when it is a model-like word of three or more letters and
// digits (CX5 in CX5-ROCE, as people glue a model to what it runs). A
// token of one part has none. The key is in a buffer yield must not keep:
// a query's long identifiers have many runs, and few of them are names.
func runKeys(t string, singles bool, yield func(key []byte)) {
	if isCJK(t) || isNoise(t) {
		return
	}
	var parts []string
	for _, p := range splitParts(t) {
		if p != "" {
			parts = append(parts, p)
		}
	}
	k := len(parts)
	if k < 2 {
		return
	}
	buf := make([]byte, 0, len(t))
	for s := 0; s < k; s++ {
		buf = appendCompact(buf[:0], parts[s])
		if singles && modelLike(buf) {
			yield(buf)
		}
		for e := s + 1; e < min(k, s+maxRun); e++ {
			buf = appendCompact(buf, parts[e])
			if s == 0 && e == k-1 {
				continue
			}
			if slices.ContainsFunc(buf, func(c byte) bool { return c < '0' || c > '9' }) {
				yield(buf)
			}
		}
	}
}

// modelLike reports whether compact key k, one part of an identifier, may
// be a model's name on its own: three or more bytes, a digit and a letter.
// A word part (roce, core) or a number is no model.
func modelLike(k []byte) bool {
	return len(k) >= 3 && slices.ContainsFunc(k, func(c byte) bool { return c >= '0' && c <= '9' }) &&
		slices.ContainsFunc(k, func(c byte) bool { return c < '0' || c > '9' })
}

// appendCompact appends compact(s) to dst.
func appendCompact(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r >= 'A' && r <= 'Z':
			dst = append(dst, byte(r)+'a'-'A')
		case r >= '0' && r <= '9' || r >= 'a' && r <= 'z':
			dst = append(dst, byte(r))
		case r >= 0x80:
			switch lr := unicode.ToLower(r); {
			case lr >= 0x80 && lr <= 0xffff:
				dst = utf8.AppendRune(dst, lr)
			case lr >= '0' && lr <= '9' || lr >= 'a' && lr <= 'z': // the Kelvin sign is k
				dst = append(dst, byte(lr))
			}
		}
		i += n
	}
	return dst
}

// appendPairKey appends the compact key of raw tokens a and b written as
// one to dst, or returns nil when either is CJK or noise or has no letter
// or digit.
func appendPairKey(dst []byte, a, b string) []byte {
	if isCJK(a) || isCJK(b) || isNoise(a) || isNoise(b) {
		return nil
	}
	dst = appendCompact(dst, a)
	na := len(dst)
	dst = appendCompact(dst, b)
	if na == 0 || len(dst) == na {
		return nil
	}
	return dst
}

// firmwareLine returns the major of firmware version t, or "" when t has
// no firmware version's form.
func firmwareLine(t string) string {
	if m := fwVersionRe.FindStringSubmatch(t); m != nil {
		return m[1]
	}
	return ""
}

// queryNames yields the names a query reads at raw token i of raws (see
// above), each with the byte span it covers; keyNames gives the names of
// a compact key and line the adapters of a firmware line.
func queryNames(raws []raw, i int, keyNames func(key []byte) []string, line func(major string) []string, yield func(name string, start, end int)) {
	r := raws[i]
	// A part alone only when the whole token names nothing: E810-XXVDA2
	// is the E810-XXV, not every E810 too.
	var wb [64]byte
	whole := keyNames(appendCompact(wb[:0], r.text))
	runKeys(r.text, len(whole) == 0, func(key []byte) {
		for _, n := range keyNames(key) {
			yield(n, r.start, r.end)
		}
	})
	if key := gluedKey(r.text); key != "" {
		for _, n := range keyNames([]byte(key)) {
			yield(n, r.start, r.end)
		}
	}
	if major := firmwareLine(r.text); major != "" {
		for _, n := range line(major) {
			yield(n, r.start, r.end)
		}
	}
	if i+1 < len(raws) {
		var buf [64]byte
		if key := appendPairKey(buf[:0], r.text, raws[i+1].text); key != nil {
			for _, n := range keyNames(key) {
				yield(n, r.start, raws[i+1].end)
			}
		}
	}
}

// keyNames are the names of compact key: the alias-kind terms of the
// key's own analysis, as the static index's surface table holds them.
func (a *Analyzer) keyNames(key []byte) []string {
	al := a.Aliases
	if al == nil || len(al.single[string(key)]) == 0 {
		return nil
	}
	k := string(key)
	if v, ok := al.keyNames.Load(k); ok {
		return v.([]string)
	}
	var out []string
	for _, t := range queryTerms(a.Analyze(k)) {
		if t.Kind == Alias {
			out = append(out, t.Term)
		}
	}
	al.keyNames.Store(k, out)
	return out
}

// queryTokens are a query's tokens: Analyze's, and after each position's
// the names only a query reads there (queryNames).
func (a *Analyzer) queryTokens(q string) []Token {
	raws := rawTokens(q)
	base := make([]Token, 0, len(raws)*2)
	a.tokens(q, raws, func(t Token) { base = append(base, t) })
	if a.Aliases == nil {
		return base
	}
	out := make([]Token, 0, len(base)+4)
	j := 0
	for i := range raws {
		pos := i + 1
		for j < len(base) && base[j].Pos == pos {
			out = append(out, base[j])
			j++
		}
		queryNames(raws, i, a.keyNames, a.Aliases.line, func(n string, start, end int) {
			out = append(out, Token{Term: n, Kind: Alias, Pos: pos, Start: start, End: end})
		})
	}
	return out
}

// nameKeys are the compact keys queryNames looks up for raws: what a
// static index must load besides the raw tokens (search.js loads their
// shards too).
func nameKeys(raws []raw) []string {
	var out []string
	for i, r := range raws {
		runKeys(r.text, true, func(key []byte) { out = append(out, string(key)) })
		if key := gluedKey(r.text); key != "" {
			out = append(out, key)
		}
		if i+1 < len(raws) {
			if key := appendPairKey(nil, r.text, raws[i+1].text); key != nil {
				out = append(out, string(key))
			}
		}
	}
	return out
}
