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
	ix, _, _ := loadBundled(t)
	st, _, _ := loadStatic(t)
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

// TestZhSynonyms: a Chinese query finds a page that writes the other word
// of a synonym group, both ways, on both engines, and the page with the
// query's own word ranks first.
func TestZhSynonyms(t *testing.T) {
	docs := []Doc{
		{URL: "faq/a.zh.html", Title: "检查适配器", Kind: "faq", Lang: "zh", Body: "如何检查适配器是否被识别"},
		{URL: "faq/b.zh.html", Title: "检查网卡", Kind: "faq", Lang: "zh", Body: "如何检查网卡是否被识别"},
		{URL: "faq/c.zh.html", Title: "内核模块", Kind: "faq", Lang: "zh", Body: "加载内核模块"},
	}
	ix, err := Build(docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st := NewStatic(docs, nil)
	for q, want := range map[string][]string{
		"网卡":  {"faq/b.zh.html", "faq/a.zh.html"},
		"适配器": {"faq/a.zh.html", "faq/b.zh.html"},
		"模块":  {"faq/c.zh.html"},
	} {
		server, static := both(t, ix, st, Query{Text: q})
		for name, got := range map[string][]string{"bleve": server, "static": static} {
			if !slices.Equal(got, want) {
				t.Errorf("%s %q: %v, want %v", name, q, got, want)
			}
		}
	}
	var got []string
	zhSynonymsIn([]rune("检查网络适配器和适配器"), func(c string, i, j int) {
		got = append(got, c+":"+string([]rune("检查网络适配器和适配器")[i:j]))
	})
	if want := []string{"网卡:网络适配器", "网卡:适配器"}; !slices.Equal(got, want) {
		t.Errorf("zhSynonymsIn: %v, want %v", got, want)
	}
}
