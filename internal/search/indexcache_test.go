package search

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// sameTables fails unless a and b hold the same term index and marks.
func sameTables(t *testing.T, a, b *Index) {
	t.Helper()
	if a.terms.absent != b.terms.absent || !reflect.DeepEqual(a.terms.post, b.terms.post) {
		t.Error("term indexes differ")
	}
	if a.marks.nkeys != b.marks.nkeys || !reflect.DeepEqual(a.marks.docs, b.marks.docs) || !reflect.DeepEqual(a.marks.rev, b.marks.rev) {
		t.Error("marks differ")
	}
}

// sameAnswers fails unless b answers every query of the query set, with a
// filter and on a later page too, as the bundled index (loadBundled) does.
func sameAnswers(t *testing.T, b *Index) {
	t.Helper()
	ctx := context.Background()
	for _, qq := range loadQueries(t).Query {
		for _, q := range []Query{{Text: qq.Q}, {Text: qq.Q, Kind: "faq", Offset: 3}} {
			want := answer(t, q)
			got, err := b.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%+v: the cached index answers\n%+v\nwhere Build answers\n%+v", q, got, want)
			}
		}
	}
}

// cached is Cached, failing the test on an error or when hit is not want.
func cached(t *testing.T, path, code string, docs []Doc, al *Aliases, want bool) *Index {
	t.Helper()
	ix, hit, err := Cached(path, code, docs, al)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if hit != want {
		t.Fatalf("Cached: hit %v, want %v", hit, want)
	}
	return ix
}

// TestCachedIsBuild: the tables read back from the cache file are those
// Build makes, and answer the query set as Build's index does.
func TestCachedIsBuild(t *testing.T) {
	t.Parallel()
	ix, al, docs := loadBundled(t)
	path := filepath.Join(t.TempDir(), "sub", "search")
	made := cached(t, path, "code 1", docs, al, false)
	sameTables(t, ix, made)
	read := cached(t, path, "code 1", docs, al, true)
	sameTables(t, ix, read)
	sameAnswers(t, read)
}

// TestCachedNeverStale: a cache file made from other documents, other
// aliases or another program is not read, and what is answered then is
// the new documents' answer. The key does not depend on how many
// documents there are, so a few stand for the bundled ones.
func TestCachedNeverStale(t *testing.T) {
	t.Parallel()
	docs, al := smallKB()
	path := filepath.Join(t.TempDir(), "search")
	cached(t, path, "code 1", docs, al, false)
	cached(t, path, "code 1", docs, al, true)

	edited := append([]Doc(nil), docs...)
	edited[1].Body += " zqxwvk"
	ix := cached(t, path, "code 1", edited, al, false)
	res, err := ix.Search(context.Background(), Query{Text: "zqxwvk"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].URL != edited[1].URL {
		t.Errorf("after an edit of %s, zqxwvk finds %+v", edited[1].URL, res.Results)
	}
	cached(t, path, "code 1", edited, al, true)

	_, more := smallKB()
	more.Add("connectx-5", "zqxwvk5")
	cached(t, path, "code 1", edited, more, false)
	cached(t, path, "code 2", edited, more, false)
	cached(t, path, "code 2", edited, more, true)
}

// smallKB is two FAQ documents and an alias of ConnectX-5.
func smallKB() ([]Doc, *Aliases) {
	docs := []Doc{
		{URL: "faq/a.html", Title: "PFC on ConnectX-5", Kind: "faq", Lang: "en", Body: "Priority flow control pauses mlx5_core queues."},
		{URL: "faq/b.html", Title: "GID index", Kind: "faq", Lang: "en", Body: "Failed to modify QP to RTR: check the GID index."},
	}
	al := NewAliases()
	al.Add("connectx-5", "CX5")
	return docs, al
}

// TestCachedWithoutAFile: no path, no program identity, a folder that
// cannot be made and a damaged file all give Build's index, without error.
func TestCachedWithoutAFile(t *testing.T) {
	t.Parallel()
	docs, al := smallKB()
	want, err := Build(docs, al)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, path, code string }{
		{"no path", "", "code"},
		{"no program identity", filepath.Join(dir, "search"), ""},
		{"a folder that cannot be made", filepath.Join(file, "sub", "search"), "code"},
	} {
		sameTables(t, want, cached(t, c.path, c.code, docs, al, false))
		if _, err := os.Stat(c.path); c.path != "" && err == nil {
			t.Errorf("%s: a file was written", c.name)
		}
	}

	path := filepath.Join(dir, "search")
	cached(t, path, "code", docs, al, false)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{good[:len(good)-1], append(append([]byte(nil), good...), 0), good[:len(cacheMagic)+10]} {
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		sameTables(t, want, cached(t, path, "code", docs, al, false))
		sameTables(t, want, cached(t, path, "code", docs, al, true)) // written anew
	}
}

// FuzzReadTables: no file, however damaged, makes readTables panic.
func FuzzReadTables(f *testing.F) {
	docs := []Doc{{URL: "a.html", Title: "ConnectX-5", Kind: "adapter", Body: "mlx5_core firmware 16.35.2000"}, {URL: "b.html", Title: "RoCE", Kind: "faq", Body: "RoCEv2 GID index"}}
	ix, err := Build(docs, NewAliases())
	if err != nil {
		f.Fatal(err)
	}
	defer ix.Close()
	var key [32]byte
	f.Add(ix.appendTables(nil, key))
	f.Fuzz(func(t *testing.T, b []byte) {
		fresh, err := newIndex(docs, NewAliases())
		if err != nil {
			t.Fatal(err)
		}
		if fresh.readTables(b, key) == nil {
			fresh.Search(context.Background(), Query{Text: "mlx5_core RoCE"})
		}
	})
}
