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
