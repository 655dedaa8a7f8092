package search

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHandler(t *testing.T) {
	ix, _, _ := loadBundled(t)
	srv := httptest.NewServer(Handler(ix))
	defer srv.Close()
	get := func(q string) (*http.Response, Results) {
		resp, err := http.Get(srv.URL + "/api/search?" + q)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r Results
		if resp.StatusCode == 200 {
			if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
				t.Fatal(err)
			}
		}
		return resp, r
	}
	resp, r := get("q=" + url.QueryEscape("CX5"))
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if len(r.Results) == 0 || r.Results[0].URL != "adapter/connectx-5.html" || !strings.Contains(r.Results[0].Snippet, "<mark>ConnectX-5</mark>") {
		t.Errorf("CX5: %+v", r.Results)
	}
	if len(r.Facets.Kind) == 0 || len(r.Facets.Vendor) == 0 {
		t.Errorf("no facets: %+v", r.Facets)
	}
	_, r = get("q=RoCE&kind=glossary&limit=3")
	if len(r.Results) == 0 || len(r.Results) > 3 {
		t.Errorf("kind filter: %d results", len(r.Results))
	}
	for _, h := range r.Results {
		if h.Kind != "glossary" {
			t.Errorf("kind filter let through %s", h.URL)
		}
	}
	for q, code := range map[string]int{
		"q=" + strings.Repeat("a", MaxQueryBytes+1): http.StatusRequestEntityTooLarge,
		"q=x&limit=0":    http.StatusBadRequest,
		"q=x&limit=many": http.StatusBadRequest,
		"q=x&offset=-1":  http.StatusBadRequest,
		"q=%ff":          http.StatusBadRequest,
	} {
		if resp, _ := get(q); resp.StatusCode != code {
			t.Errorf("%.40s: status %d, want %d", q, resp.StatusCode, code)
		}
	}
	if resp, err := http.Post(srv.URL+"/api/search?q=x", "text/plain", nil); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v", resp.StatusCode, err)
	}
	// A cached answer is the uncached one.
	ix.SetCacheSize(0)
	_, cold := get("q=" + url.QueryEscape("RoCE 模式") + "&limit=5")
	ix.SetCacheSize(DefaultCacheSize)
	get("q=" + url.QueryEscape("RoCE 模式") + "&limit=5")
	_, warm := get("q=" + url.QueryEscape("RoCE 模式") + "&limit=5")
	if len(cold.Results) == 0 || !cmp.Equal(cold, warm) {
		t.Errorf("cached answer differs:\n%+v\n%+v", cold, warm)
	}
	if _, ok := ix.cache.get(strings.Join([]string{"RoCE 模式", "", "", "", "5", "0"}, "\x00")); !ok {
		t.Error("the answer was not cached")
	}
	// Concurrent queries agree with a lone one (run with -race to check sharing).
	_, want := get("q=" + url.QueryEscape("Failed to modify QP to RTR"))
	var wg sync.WaitGroup
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, got := get("q=" + url.QueryEscape("Failed to modify QP to RTR"))
			if len(got.Results) == 0 || got.Results[0].URL != want.Results[0].URL {
				t.Errorf("concurrent query got %+v", got.Results)
			}
		}()
	}
	wg.Wait()
}
