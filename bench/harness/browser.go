package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// browserQueries are the queries timed in Chromium on both static searches:
// identifiers and a pasted error, words the corpus generator writes.
var browserQueries = []string{"mlx5_core", "15b3:101d", "101d", "Failed to modify QP to RTR", "16.35.2000", "RoCEv2"}

// searchPage tells the harness how a static search shows its first result,
// which requests belong to its index, and the page that runs a query.
type searchPage struct {
	tool, page, done, indexPath string
}

// pagefindPage is a minimal page that runs a Pagefind query from ?q= and
// shows the first result's title, as Pagefind's own UI would.
const pagefindPage = `<!doctype html><html><head><meta charset="utf-8"><title>pagefind</title></head><body><ol id="r"></ol>
<script type="module">
const pagefind = await import("./pagefind/pagefind.js");
const q = new URLSearchParams(location.search).get("q");
const s = await pagefind.search(q);
const r = document.getElementById("r");
if (s.results.length) { const d = await s.results[0].data(); const li = document.createElement("li"); const a = document.createElement("a"); a.href = d.url; a.textContent = d.meta.title; li.append(a); r.append(li); } else { r.dataset.empty = "1"; }
</script></body></html>`

// browserLatency serves dir on loopback and times each query in headless
// Chromium: cold (a new browser context, empty cache) and warm (the same
// query again in that context), from navigation to the first result shown,
// and the bytes of index files the cold query loaded (the page and its own
// script not counted). It returns medians over the first n queries (all
// when n is 0).
func browserLatency(dir string, sp searchPage, n int) ([]Measure, error) {
	queries := browserQueries
	if n > 0 && n < len(queries) {
		queries = queries[:n]
	}
	exe := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		return nil, errors.New("no chromium on PATH")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String() + "/"
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	browserCtx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	if _, err := chromedp.Call(browserCtx, network.Enable, network.EnableParams{}); err != nil { // starts the browser
		return nil, err
	}
	var cold, warm []float64
	var bytesCold []int64
	for _, q := range queries {
		// A new target in a new browser context has an empty cache.
		ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
		var mu sync.Mutex
		urls := map[network.RequestID]string{}
		var loaded int64
		chromedp.Listen(ctx, func(ev any) {
			mu.Lock()
			defer mu.Unlock()
			switch e := ev.(type) {
			case *network.EventRequestWillBeSent:
				urls[e.RequestID] = e.Request.URL
			case *network.EventLoadingFinished:
				if strings.Contains(urls[e.RequestID], sp.indexPath) {
					loaded += int64(e.EncodedDataLength)
				}
			}
		})
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			cancel()
			return nil, err
		}
		page := base + sp.page + "?q=" + url.QueryEscape(q)
		run := func() (time.Duration, error) {
			tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
			defer tcancel()
			if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
				return 0, err
			}
			t0 := time.Now()
			if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
				return 0, err
			}
			// Evaluate until the first result shows; an evaluation can land
			// between execution contexts while a module script starts, so
			// errors only end the wait at the deadline.
			for {
				ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](sp.done))
				if err == nil && ok {
					return time.Since(t0), nil
				}
				if tctx.Err() != nil {
					return 0, fmt.Errorf("no result shown: %v", err)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		c, err := run()
		if err != nil {
			cancel()
			return nil, fmt.Errorf("%s %q cold: %w", sp.tool, q, err)
		}
		mu.Lock()
		bytesCold = append(bytesCold, loaded)
		mu.Unlock()
		w, err := run()
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%s %q warm: %w", sp.tool, q, err)
		}
		cold, warm = append(cold, c.Seconds()), append(warm, w.Seconds())
	}
	sort.Float64s(cold)
	sort.Float64s(warm)
	sort.Slice(bytesCold, func(i, j int) bool { return bytesCold[i] < bytesCold[j] })
	note := fmt.Sprintf("median of %d queries in headless Chromium", len(queries))
	return []Measure{
		{Name: "query-cold", Tool: sp.tool, WallS: cold[len(cold)/2], Bytes: bytesCold[len(bytesCold)/2], Note: note + "; bytes: index files loaded by a cold query"},
		{Name: "query-warm", Tool: sp.tool, WallS: warm[len(warm)/2], Note: note},
	}, nil
}

// ourSearch and pagefindSearch describe the two static searches.
var (
	ourSearch      = searchPage{tool: "kbgen", page: "search.html", done: `document.querySelector("#search-results li a") !== null`, indexPath: "/search/"}
	pagefindSearch = searchPage{tool: "pagefind", page: "pfsearch.html", done: `document.querySelector("#r li a") !== null || document.getElementById("r").dataset.empty === "1"`, indexPath: "/pagefind/"}
)

// writePagefindPage puts the query page beside Pagefind's index.
func writePagefindPage(hugoPublic string) error {
	return os.WriteFile(filepath.Join(hugoPublic, "pfsearch.html"), []byte(pagefindPage), 0o644)
}
