package search

import (
	"slices"
	"testing"
)

func TestCJKExpand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ q, want string }{
		{"mlx5 ファームウェア 更新", "mlx5 ファームウェア 更新 firmware update"},
		// The longest word at a rune wins: secure boot, not boot.
		{"セキュアブートが有効", "セキュアブートが有効 secure boot"},
		// Words inside one run, read from its start.
		{"イーサネットネットワークのフロー制御", "イーサネットネットワークのフロー制御 ethernet flow control"},
		// No word of the table: the query as it is.
		{"RoCE 是不是对交换机有也要求", "RoCE 是不是对交换机有也要求"},
		{"mlx5_core firmware", "mlx5_core firmware"},
	} {
		if got := cjkExpand(c.q); got != c.want {
			t.Errorf("cjkExpand(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

// TestCJKWordsReachBothEngines: a Japanese query's words reach the
// English pages through the terms they add, on the bleve and the static
// engine alike.
func TestCJKWordsReachBothEngines(t *testing.T) {
	ix, al, docs := loadBundled(t)
	st := NewStatic(docs, al)
	q := "ファームウェアを更新する"
	var server, static []string
	for _, qt := range ix.Analyzer().QueryTerms(q) {
		server = append(server, qt.Term)
	}
	for _, qt := range st.StaticTerms(q) {
		static = append(static, qt.Term)
	}
	if !slices.Contains(server, stem("firmware")) || !slices.Equal(server, static) {
		t.Errorf("terms of %q: bleve %v, static %v; want both with %q", q, server, static, stem("firmware"))
	}
	for _, w := range cjkWordList() {
		if !isCJK(w[0]) || len([]rune(w[0])) < 2 {
			t.Errorf("cjkWords: %q is not a CJK word of two or more runes", w[0])
		}
	}
}
