package search

import (
	"sort"
	"strings"
)

// cjkWords are the English words a CJK word of a query stands for. The
// site's pages are in English and Chinese and no page is in Japanese, so
// a Japanese query ("イーサネットネットワークのフロー制御", "ファームウェアを
// 更新する") has no bigram any page holds: only its Latin tokens would
// match. A word of this table found in a query's CJK text adds the English
// words it means to the query (cjkExpand), and the English pages are found
// by them. Only the query is read so: the pages are indexed as written.
//
// Each entry is a word's meaning, not a page's: katakana loanwords are
// the English word they transcribe, kanji words the term their
// dictionaries give, and the words are those an adapter, driver or
// network problem is described with. A word whose English is a stop word
// or names no topic (設定 settings, 概要 overview, 方法 method) is not
// listed: it would match every page alike.
var cjkWords = map[string]string{
	// Japanese katakana loanwords.
	"ファームウェア":   "firmware",
	"ファームウエア":   "firmware",
	"ドライバー":     "driver",
	"ドライバ":      "driver",
	"カーネル":      "kernel",
	"モジュール":     "module",
	"アダプター":     "adapter",
	"アダプタ":      "adapter",
	"ネットワークカード": "network adapter",
	"イーサネット":    "ethernet",
	"コンバージド":    "converged",
	"インフィニバンド":  "infiniband",
	"インストール":    "install",
	"アップデート":    "update",
	"アップグレード":   "upgrade",
	"ダウングレード":   "downgrade",
	"パケット":      "packet",
	"スイッチ":      "switch",
	"デバイス":      "device",
	"ポート":       "port",
	"コンテナー":     "container",
	"コンテナ":      "container",
	"メモリー":      "memory",
	"メモリ":       "memory",
	"ロスレス":      "lossless",
	"セキュアブート":   "secure boot",
	"タイムアウト":    "timeout",
	"プロトコル":     "protocol",
	"バージョン":     "version",
	// Kanji words, written alike in Japanese and Chinese where noted.
	"フロー制御": "flow control",
	"流量控制":  "flow control",
	"仮想マシン": "virtual machine",
	"仮想関数":  "virtual function",
	"仮想機能":  "virtual function",
	"帯域幅":   "bandwidth",
	"輻輳":    "congestion",
	"更新":    "update", // ja and zh
	"遅延":    "latency",
	"互換性":   "compatibility",
	"ブート":   "boot",
}

// cjkMaxWord is the length in runes of the longest word of cjkWords.
var cjkMaxWord = func() int {
	n := 0
	for w := range cjkWords {
		n = max(n, len([]rune(w)))
	}
	return n
}()

// cjkExpand returns query q with the English words of the cjkWords words
// in its CJK runs appended, in the order found, or q when it has none.
// Each run is read from its start: at each rune the longest word there is
// taken and the reading goes on after it, else at the next rune.
// search.js's cjkExpand is the same reading of the same table (the
// manifest's cjkw).
func cjkExpand(q string) string {
	var add []string
	for _, sp := range rawSpans(q) {
		run := q[sp[0]:sp[1]]
		if !isCJK(run) {
			continue
		}
		rs := []rune(run)
		for i := 0; i < len(rs); {
			n := 0
			for l := min(cjkMaxWord, len(rs)-i); l >= 2; l-- {
				if en, ok := cjkWords[string(rs[i:i+l])]; ok {
					add, n = append(add, en), l
					break
				}
			}
			if n == 0 {
				n = 1
			}
			i += n
		}
	}
	if len(add) == 0 {
		return q
	}
	return q + " " + strings.Join(add, " ")
}

// cjkWordList is cjkWords as sorted [word, english] pairs, for the
// manifest.
func cjkWordList() [][2]string {
	out := make([][2]string, 0, len(cjkWords))
	for w, en := range cjkWords {
		out = append(out, [2]string{w, en})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// zhSynonyms are groups of Chinese words that name one thing, the first
// word of each the group's own. Chinese pages and queries use either word
// of a group (网卡 and 适配器 both name the network adapter: the adapter
// FAQ says 适配器 where a user writes 网卡), and character pairs match
// only the word written. Wherever text (a page or a query) holds a word
// of a group other than its first, the analyzer also emits the first
// word's pairs at that word (zhSynonymsIn): a query for either word then
// finds a page with the other, and a page with the word the query has
// still matches more of its pairs.
var zhSynonyms = [][]string{
	{"网卡", "适配器", "网络适配器", "网络接口卡"}, // network adapter (NIC)
	{"错误", "报错"}, // error; 报错 "reports an error"
	{"配置", "设置"}, // configure, set up
}

// zhCanon maps each word of zhSynonyms but a group's first to that first
// word; zhMaxWord is the longest word's length in runes.
var zhCanon, zhMaxWord = func() (map[string]string, int) {
	m, n := map[string]string{}, 0
	for _, g := range zhSynonyms {
		for _, w := range g[1:] {
			m[w] = g[0]
			n = max(n, len([]rune(w)))
		}
	}
	return m, n
}()

// zhSynonymsIn yields, for each word of zhCanon in the CJK run rs, its
// group's first word and the word's rune span [i, j), reading the run as
// cjkExpand does: from its start, the longest word at each rune.
func zhSynonymsIn(rs []rune, yield func(canon string, i, j int)) {
	for i := 0; i < len(rs); {
		n := 1
		for l := min(zhMaxWord, len(rs)-i); l >= 2; l-- {
			if c, ok := zhCanon[string(rs[i:i+l])]; ok {
				yield(c, i, i+l)
				n = l
				break
			}
		}
		i += n
	}
}

// zhSynonymList is zhCanon as sorted [word, first word] pairs, for the
// manifest.
func zhSynonymList() [][2]string {
	out := make([][2]string, 0, len(zhCanon))
	for w, c := range zhCanon {
		out = append(out, [2]string{w, c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// cjkPairs yields the character pairs of w (w itself when it is one
// rune), as the analyzer cuts a CJK run.
func cjkPairs(w string, yield func(string)) {
	rs := []rune(w)
	if len(rs) == 1 {
		yield(w)
		return
	}
	for i := 0; i+1 < len(rs); i++ {
		yield(string(rs[i : i+2]))
	}
}
