// Command searchquality scores the site's static search and Pagefind on
// one built site with the project's query set
// (internal/search/testdata/queries.toml): the site folder is served on
// loopback and each query runs in headless Chromium, in rocekb's
// search.html and in a page that calls Pagefind's own search API; the
// first ten result URLs of each are scored as the quality test scores the
// engines (MRR, hit@3, recall@3).
//
//	kbgen build --out site && pagefind --site site
//	go run ./bench/searchquality -site site [-queries internal/search/testdata/queries.toml]
//
// Pagefind keeps one index per page language and searches the one of the
// page that asks: a query with CJK text runs in a lang="zh" page, any
// other in a lang="en" page, as each reader's own page would. Glossary
// anchors (glossary.html#gid) are compared without the anchor for both
// engines, as Pagefind returns the page.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"
	"github.com/chromedp/chromedp"
)

// pagefindPage runs ?q= through Pagefind in the language ?lang= and lists
// the first ten result URLs, then sets data-done.
const pagefindPage = `<!doctype html><html><head><meta charset="utf-8"><title>pagefind</title></head><body><ol id="r"></ol>
<script type="module">
const p = new URLSearchParams(location.search);
document.documentElement.lang = p.get("lang") || "en";
const pagefind = await import("./pagefind/pagefind.js");
const s = await pagefind.search(p.get("q"));
const r = document.getElementById("r");
for (const x of s.results.slice(0, 10)) { const d = await x.data(); const li = document.createElement("li"); const a = document.createElement("a"); a.setAttribute("href", d.url); li.append(a); r.append(li); }
r.dataset.done = "1";
</script></body></html>`

type query struct {
	Q      string   `toml:"q"`
	Kind   string   `toml:"kind"`
	Expect []string `toml:"expect"`
	Source string   `toml:"source"`
}

type score struct {
	n, hit3, first, none int
	rr, recall           float64
	byKind               map[string][2]float64 // kind → {sum rr, count}
}

func main() {
	site := flag.String("site", "", "built site folder, with Pagefind's index in site/pagefind")
	qpath := flag.String("queries", "internal/search/testdata/queries.toml", "query set")
	jsonOut := flag.String("json", "", "also write the per-query rankings here")
	flag.Parse()
	if err := run(*site, *qpath, *jsonOut); err != nil {
		fmt.Fprintln(os.Stderr, "searchquality:", err)
		os.Exit(1)
	}
}

func run(site, qpath, jsonOut string) error {
	if site == "" {
		return errors.New("-site is required")
	}
	var qs struct {
		Query []query `toml:"query"`
	}
	if _, err := toml.DecodeFile(qpath, &qs); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(site, "pfsearch.html"), []byte(pagefindPage), 0o644); err != nil {
		return err
	}
	defer os.Remove(filepath.Join(site, "pfsearch.html"))
	exe := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		return errors.New("no chromium on PATH")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(site)), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String() + "/"
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// The first action starts the browser, tied to the context it runs in:
	// not one of the per-query timeouts.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return err
	}

	engines := []struct {
		name string
		page func(q query) string
		done string
		list string
	}{
		{"rocekb search.js", func(q query) string { return base + "search.html?q=" + url.QueryEscape(q.Q) },
			`document.getElementById("search-status").textContent !== ""`, "#search-results li a"},
		{"Pagefind", func(q query) string {
			lang := "en"
			if hasCJK(q.Q) {
				lang = "zh"
			}
			return base + "pfsearch.html?lang=" + lang + "&q=" + url.QueryEscape(q.Q)
		}, `document.getElementById("r").dataset.done === "1"`, "#r li a"},
	}
	rankings := map[string]map[string][]string{}
	scores := make([]score, len(engines))
	for ei, e := range engines {
		rankings[e.name] = map[string][]string{}
		sc := &scores[ei]
		sc.byKind = map[string][2]float64{}
		for _, q := range qs.Query {
			got, err := results(ctx, e.page(q), e.done, e.list, base)
			if err != nil {
				return fmt.Errorf("%s %q: %w", e.name, q.Q, err)
			}
			rankings[e.name][q.Q] = got
			recall, rr := quality(got, q.Expect)
			sc.n++
			sc.rr += rr
			sc.recall += recall
			if rr >= 1.0/3 {
				sc.hit3++
			}
			if rr == 1 {
				sc.first++
			}
			if len(got) == 0 {
				sc.none++
			}
			k := sc.byKind[q.Kind]
			sc.byKind[q.Kind] = [2]float64{k[0] + rr, k[1] + 1}
		}
	}
	fmt.Printf("%d queries, site %s\n\n", len(qs.Query), site)
	fmt.Println("| engine | MRR | hit@3 | recall@3 | first | no result |")
	fmt.Println("|---|---|---|---|---|---|")
	for i, e := range engines {
		s := scores[i]
		n := float64(s.n)
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %d | %d |\n", e.name, s.rr/n, float64(s.hit3)/n, s.recall/n, s.first, s.none)
	}
	fmt.Println()
	var kinds []string
	for k := range scores[0].byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Print("| MRR by kind |")
	for _, e := range engines {
		fmt.Printf(" %s |", e.name)
	}
	fmt.Print("\n|---|")
	for range engines {
		fmt.Print("---|")
	}
	fmt.Println()
	for _, k := range kinds {
		fmt.Printf("| %s (%d) |", k, int(scores[0].byKind[k][1]))
		for i := range engines {
			v := scores[i].byKind[k]
			fmt.Printf(" %.3f |", v[0]/v[1])
		}
		fmt.Println()
	}
	if jsonOut != "" {
		data, _ := json.MarshalIndent(rankings, "", "  ")
		return os.WriteFile(jsonOut, data, 0o644)
	}
	return nil
}

// results opens page and returns the site-relative URLs of its result
// links, anchors dropped, once done holds.
func results(ctx context.Context, page, done, list, base string) ([]string, error) {
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		return nil, err
	}
	for {
		// An evaluation can land between execution contexts while a
		// module script starts: errors end the wait only at the deadline.
		v, err := chromedp.Run(tctx, chromedp.Evaluate[bool](done))
		if err == nil && v {
			break
		}
		if tctx.Err() != nil {
			return nil, fmt.Errorf("no results shown: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	js := `Array.from(document.querySelectorAll(` + "`" + list + "`" + `)).slice(0, 10).map(a => a.href)`
	hrefs, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range hrefs {
		h = strings.TrimPrefix(h, base)
		h, _, _ = strings.Cut(h, "#")
		out = append(out, strings.TrimPrefix(h, "/"))
	}
	return out, nil
}

// quality is the quality test's: recall@3 over at most three expected
// pages, and the reciprocal rank of the first expected page in the top
// ten; anchors are dropped (and duplicates with them).
func quality(got, expect []string) (recall, rr float64) {
	want := map[string]bool{}
	for _, e := range expect {
		e, _, _ = strings.Cut(e, "#")
		want[e] = true
	}
	n := min(3, len(want))
	hit := 0
	seen := map[string]bool{}
	rank := 0
	for _, u := range got {
		if seen[u] {
			continue
		}
		seen[u] = true
		rank++
		if rank <= 3 && want[u] {
			hit++
		}
		if rr == 0 && want[u] && rank <= 10 {
			rr = 1 / float64(rank)
		}
	}
	return float64(hit) / float64(n), rr
}

func hasCJK(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}
