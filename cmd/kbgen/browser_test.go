package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/preview"
	"github.com/rocekb/rocekb/internal/scripttest"
	"github.com/rocekb/rocekb/internal/verdict"
)

// The browser tests drive headless Chromium over the built site, served
// by kbgen serve's handler on 127.0.0.1 and again opened from file://.
// Element ids they rely on (agreed with the pages' templates):
//
//	adapter/index.html  form#ad-filters with select#f-vendor and input#f-q;
//	                    table#adapters, one tbody row per adapter, hidden
//	                    rows have the hidden attribute
//	index.html          form#will-form: input#will-a (adapter name),
//	                    select#will-t (distro id), select#will-s (stack
//	                    key, "inbox"); the verdict shows in #will-result
//	                    as p.verdict-big with class ok, cond, no or unk
//	tree/<id>.html      nested <details><summary>
//	search.html         input#search-q, ol#search-results li a
//
// Screenshots go to $ROCEKB_SCREENSHOTS; without it none are taken.

// xssHost is a record whose strings are markup; none of it may run.
const xssHost = `schema = 2
[host]
id = "<script>window.__xss=1</script>"
kernel_release = "5.14.0-70.el9.x86_64"
source_kind = "root"
redacted = false
has_rdma = true

[host.os]
id = "rhel"
version_id = "9.0"
pretty_name = "<img src=x onerror=window.__xss=2>"

[[adapter]]
pci_address = "0000:3b:00.0"
vendor = "15b3"
device = "1017"
name = "<svg onload=window.__xss=3>"
part_number = "<script>window.__xss=4</script>"
`

const xssSlug = "script-window.__xss-1-script"

// chromium finds the browser; without one the test is skipped, except in
// CI (CI=true), where a missing browser is a failure.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium binary found, and CI=true: .ci/run installs it")
	}
	t.Skip("no chromium binary found (CI=true makes this a failure)")
	return ""
}

// browser is one headless Chromium tab and what it saw.
type browser struct {
	t    *testing.T
	ctx  context.Context
	shot string // screenshot folder
	at   string // the URL open last opened

	mu       sync.Mutex
	problems []string // console errors, exceptions, failed loads
	requests []string // every URL the pages asked for
}

// startChromium starts one headless Chromium for the test and returns its
// context, from which each browser opens a tab: a second browser process
// would cost its start-up again, and tabs are kept apart anyway (their
// own events, viewport and emulated media; the http and file sites are
// different origins).
func startChromium(t *testing.T, exe string) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-background-networking", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	var err error
	scripttest.Locked(func() { err = chromedp.Do(ctx) }) // starts the browser, in the package's folder
	if err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	return ctx
}

// newBrowser opens a tab in the Chromium of browserCtx (startChromium).
func newBrowser(t *testing.T, browserCtx context.Context) *browser {
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	b := &browser{t: t, ctx: ctx, shot: os.Getenv("ROCEKB_SCREENSHOTS")}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					args = append(args, strings.TrimSpace(string(a.Value)+" "+a.Description))
				}
				b.problems = append(b.problems, "console."+string(e.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.problems = append(b.problems, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				b.problems = append(b.problems, "log: "+e.Entry.Text+" "+e.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, e.Request.URL)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, enable := range []func() error{
		func() error { _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); return err },
		func() error { _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); return err },
		func() error { _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); return err },
	} {
		if err := enable(); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// do runs actions with a time limit, so a page that never answers fails
// the test rather than hanging it.
func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// open navigates and waits for the page to load.
func (b *browser) open(u string) {
	b.t.Helper()
	if err := b.do(chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		b.t.Fatalf("open %s: %v", u, err)
	}
	b.at = u
}

// stay opens u unless open last opened it: checks that only read a page
// or use its form ask on the page already loaded, as a reader would,
// rather than load it (and the home page's verdict table) again.
func (b *browser) stay(u string) {
	b.t.Helper()
	if b.at != u {
		b.open(u)
	}
}

// eval evaluates a JavaScript expression into v.
func eval[T any](b *browser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// poll waits until a JavaScript expression is true.
func (b *browser) poll(js string) error {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond)))
	return err
}

// screenshot saves a full-page PNG for a person to look at, when
// $ROCEKB_SCREENSHOTS names a folder; nothing asserts on it, so without
// one no time is spent encoding images that a temporary folder would lose.
func (b *browser) screenshot(name string) {
	if b.shot == "" {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	img, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 makes a PNG
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	os.WriteFile(filepath.Join(b.shot, name+".png"), img, 0o644)
}

func (b *browser) media(scheme string) error {
	_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
	return err
}

// drain returns and forgets what the pages reported.
func (b *browser) drain() (problems, requests []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	problems, requests = b.problems, b.requests
	b.problems, b.requests = nil, nil
	return problems, requests
}

// willCase is a will-it-work choice and the engine's verdict on it.
type willCase struct {
	adapter, name, distro string
	kernel                string // typed in the kernel field instead of a distro
	want                  verdict.Level
}

// willCases picks, from the bundled matrix, one inbox plan the engine
// finds supported, one unsupported and one unknown.
func willCases(t *testing.T, m *matrix.Matrix) []willCase {
	want := []verdict.Level{verdict.Supported, verdict.Unsupported, verdict.Undecided}
	found := map[verdict.Level]willCase{}
	for _, a := range m.Adapters {
		for _, d := range m.Distros {
			v := verdict.Judge(m, verdict.Plan{Adapter: a.ID, Distro: d.ID, Stack: "inbox"})
			if _, ok := found[v.Verdict]; !ok {
				found[v.Verdict] = willCase{adapter: a.ID, name: a.Name, distro: d.ID, want: v.Verdict}
			}
		}
	}
	var out []willCase
	for _, l := range want {
		c, ok := found[l]
		if !ok {
			t.Fatalf("the bundled matrix has no inbox plan the engine calls %s", l)
		}
		out = append(out, c)
	}
	// Kernels the form once could not take (no 6.13, no 6.9): one the
	// engine finds supported, one unsupported.
	byKernel := map[verdict.Level]willCase{}
	for _, a := range m.Adapters {
		for _, k := range []string{"6.13", "3.9"} {
			v := verdict.Judge(m, verdict.Plan{Adapter: a.ID, Kernel: k, Stack: "inbox"})
			if _, ok := byKernel[v.Verdict]; !ok {
				byKernel[v.Verdict] = willCase{adapter: a.ID, name: a.Name, kernel: k, want: v.Verdict}
			}
		}
	}
	for _, l := range []verdict.Level{verdict.Supported, verdict.Unsupported} {
		c, ok := byKernel[l]
		if !ok {
			t.Fatalf("the bundled matrix has no inbox plan on kernel 6.13 or 3.9 the engine calls %s", l)
		}
		out = append(out, c)
	}
	return out
}

var willClass = map[string]verdict.Level{"ok": verdict.Supported, "cond": verdict.Conditional, "no": verdict.Unsupported, "unk": verdict.Undecided}

// TestBrowser checks the bundled knowledge base built with the fixture
// hosts and a record full of markup (sharedSite) in Chromium over HTTP on
// 127.0.0.1 and from file:// (layout checks over HTTP only, see checkSite).
func TestBrowser(t *testing.T) {
	exe := chromium(t)
	t.Parallel()
	start := time.Now()
	out, log, err := sharedSite()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, log)
	}
	if _, err := os.Stat(filepath.Join(out, "host", xssSlug+".html")); err != nil {
		t.Fatalf("the markup record was not published: %v\n%s", err, log)
	}
	var m *matrix.Matrix
	var probs diag.List
	scripttest.Locked(func() { m, probs = matrix.Load(os.DirFS("../../matrix"), "matrix") })
	if m == nil {
		t.Fatal(probs)
	}
	cases := willCases(t, m)
	for _, c := range cases {
		t.Logf("will-it-work case: %s on %s%s, inbox: the engine says %s", c.adapter, c.distro, c.kernel, c.want)
	}

	h, err := preview.New(preview.Options{Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close) // after the browsers' cleanups, which end their event streams
	t.Cleanup(func() {
		if os.Getenv("ROCEKB_SCREENSHOTS") != "" {
			t.Logf("browser tests took %s; screenshots in %s", time.Since(start).Round(time.Millisecond), os.Getenv("ROCEKB_SCREENSHOTS"))
		} else {
			t.Logf("browser tests took %s; no screenshots (set ROCEKB_SCREENSHOTS to a folder for them)", time.Since(start).Round(time.Millisecond))
		}
	})

	// Each mode has its own tab of one Chromium, and the two run at once:
	// most of a check is waiting on a page.
	chrome := startChromium(t, exe)
	for _, mode := range []struct {
		name, base string
		local      func(u *url.URL) bool
	}{
		{"http", srv.URL + "/", func(u *url.URL) bool { return u.Scheme == "http" && u.Hostname() == "127.0.0.1" }},
		{"file", (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/"}).String(), func(u *url.URL) bool { return u.Scheme == "file" }},
	} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			b := newBrowser(t, chrome)
			checkSite(t, b, mode.name, mode.base, out, cases)
			problems, requests := b.drain()
			for _, p := range problems {
				t.Errorf("console: %s", p)
			}
			var away []string
			for _, r := range requests {
				u, err := url.Parse(r)
				if err != nil || !(mode.local(u) || u.Scheme == "data" || u.Scheme == "about" || u.Scheme == "blob") {
					away = append(away, r)
				}
			}
			sort.Strings(away)
			if len(away) > 0 {
				t.Errorf("requests left the site: %v", away)
			}
			if len(requests) == 0 {
				t.Errorf("no requests seen: the network listener is not working")
			}
		})
	}
}

func checkSite(t *testing.T, b *browser, mode, base, out string, cases []willCase) {
	exists := func(p string) bool { _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); return err == nil }
	adaptersIndex := page.Path(page.Adapters, "")
	// What a page looks like (its layout on a phone, in print and in the
	// dark scheme, a tree's keyboard) is the same HTML and CSS from either
	// scheme, and is checked over HTTP only; what loads data (the form,
	// search, a record's page, a missing page) is checked from both.
	layout := func(name string, f func(t *testing.T)) {
		if mode == "http" {
			t.Run(name, f)
		}
	}

	t.Run("adapter filters", func(t *testing.T) {
		b.t = t
		b.open(base + adaptersIndex)
		visible := `Array.from(document.querySelectorAll("#adapters tbody tr")).filter(r => !r.hidden && r.getClientRects().length > 0).length`
		var all, vendor, vendorRows, text int
		var pick string
		all = eval[int](b, visible)
		pick = eval[string](b, `(() => { const s = document.getElementById("f-vendor"); const o = Array.from(s.options).find(o => o.value); s.value = o.value; s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true})); return o.value })()`)
		if err := b.poll(visible + ` < ` + fmt.Sprint(all)); err != nil {
			t.Fatalf("choosing vendor %s did not narrow the %d rows: %v", pick, all, err)
		}
		vendor = eval[int](b, visible)
		vendorRows = eval[int](b, fmt.Sprintf(`document.querySelectorAll('#adapters tbody tr[data-vendor=%q]').length`, pick))
		if vendor == 0 || vendor != vendorRows {
			t.Errorf("vendor %s: %d rows shown, the table has %d of that vendor", pick, vendor, vendorRows)
		}
		eval[int](b, `(() => { const s = document.getElementById("f-vendor"); s.value = ""; s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true})); return 0 })()`)
		if err := b.do(chromedp.SendKeys(chromedp.CSS("#f-q"), "connectx-5")); err != nil {
			t.Fatal(err)
		}
		if err := b.poll(visible + ` > 0 && ` + visible + ` < ` + fmt.Sprint(all)); err != nil {
			t.Fatalf("typing connectx-5 did not narrow the rows: %v", err)
		}
		text = eval[int](b, visible)
		var shown bool
		shown = eval[bool](b, `!document.getElementById("row-connectx-5").hidden`)
		if !shown {
			t.Errorf("typing connectx-5 hid the ConnectX-5 row (%d of %d shown)", text, all)
		}
		b.screenshot(mode + "-adapters-filtered")
	})

	t.Run("will it work", func(t *testing.T) {
		b.t = t
		// One page answers every case in turn, as a reader asks: a case's
		// verdict must not depend on the one before, and each page load
		// parses the whole verdict table again.
		b.open(base + page.Path(page.Home, ""))
		for _, c := range cases {
			js := fmt.Sprintf(`(() => { const f = document.getElementById("will-form");
				document.getElementById("will-result").replaceChildren();
				document.getElementById("will-a").value = %q;
				document.getElementById("will-t").value = %q;
				document.getElementById("will-k").value = %q;
				document.getElementById("will-s").value = "inbox";
				return document.getElementById("will-t").value + "|" + document.getElementById("will-s").value })()`, c.name, c.distro, c.kernel)
			var set string
			if err := b.poll(`document.querySelectorAll("#will-t option").length > 1 && document.querySelector("#will-t option[value='` + c.distro + `']") !== null`); err != nil {
				t.Fatalf("distro %s is not offered: %v", c.distro, err)
			}
			set = eval[string](b, js)
			if set != c.distro+"|inbox" {
				t.Fatalf("form took %q, want %s|inbox", set, c.distro)
			}
			if err := b.do(chromedp.Click(chromedp.CSS(`#will-form button[type=submit]`))); err != nil {
				t.Fatal(err)
			}
			if err := b.poll(`document.querySelector("#will-result p.verdict-big") !== null`); err != nil {
				var txt string
				txt = eval[string](b, `document.getElementById("will-result").innerText`)
				t.Fatalf("%s on %s: no verdict shown (%q): %v", c.name, c.distro, txt, err)
			}
			var cls string
			cls = eval[string](b, `document.querySelector("#will-result p.verdict-big").className`)
			var got verdict.Level
			for _, w := range strings.Fields(cls) {
				if l, ok := willClass[w]; ok {
					got = l
				}
			}
			if got != c.want {
				t.Errorf("%s (%s) on %s%s, inbox: the form says %q (class %q), the engine %s", c.name, c.adapter, c.distro, c.kernel, got, cls, c.want)
			}
			if c.kernel != "" {
				if txt := eval[string](b, `document.getElementById("will-result").innerText`); !strings.Contains(txt, "kernel "+c.kernel) {
					t.Errorf("%s on kernel %s: the result does not name the kernel: %q", c.name, c.kernel, txt)
				}
			}
			b.screenshot(mode + "-will-" + string(c.want) + strings.ReplaceAll(c.kernel, ".", "_"))
		}
	})

	t.Run("will it work: did you mean", func(t *testing.T) {
		b.t = t
		// On the page the cases were asked on, the form set back to what
		// a page opened without a question shows.
		b.stay(base + page.Path(page.Home, ""))
		if err := b.poll(`document.querySelector("#will-t option") !== null`); err != nil {
			t.Fatalf("the form has no distros: %v", err)
		}
		eval[string](b, `(() => { for (const id of ["will-a", "will-t", "will-k", "will-fw"]) document.getElementById(id).value = "";
			document.getElementById("will-t").disabled = false; document.getElementById("will-s").selectedIndex = 0;
			document.getElementById("will-result").replaceChildren(); return "" })()`)
		// ask submits name as the adapter and waits for the answer's text,
		// t in cond, to be what want says.
		ask := func(name, cond, want string) {
			eval[string](b, fmt.Sprintf(`(() => { document.getElementById("will-a").value = %q; return "" })()`, name))
			if err := b.do(chromedp.Click(chromedp.CSS(`#will-form button[type=submit]`))); err != nil {
				t.Fatal(err)
			}
			if err := b.poll(`(() => { const t = document.getElementById("will-result").innerText; return ` + cond + ` })()`); err != nil {
				txt := eval[string](b, `document.getElementById("will-result").innerText`)
				t.Errorf("%s: the form says %q, want %s: %v", name, txt, want, err)
			}
		}
		ask("conectx-6", `t.includes("did you mean connectx-6")`, "a did you mean connectx-6")
		// A driver's name: the adapters it drives, as kbgen check answers it.
		ask("qedr", `t.includes("names a driver, not an adapter, so there is no verdict; the adapters it drives: fastlinq-ql41000, fastlinq-ql45000")`, "the adapters qedr drives")
		// A model after its vendor's name, as kbgen check reads it.
		ask("Mellanox ConnectX-6 Dx", `t.includes("ConnectX-6 Dx") && !t.includes("not in the matrix") && !t.includes("Loading")`, "ConnectX-6 Dx's verdict")
	})

	layout("dark mode", func(t *testing.T) {
		b.t = t
		bg := `getComputedStyle(document.body).backgroundColor`
		var light, dark string
		b.stay(base + page.Path(page.Home, ""))
		light = eval[string](b, bg)
		if err := b.media("dark"); err != nil {
			t.Fatal(err)
		}
		defer b.media("light")
		dark = eval[string](b, bg)
		if dark == light || luminance(dark) >= 0.5 {
			t.Errorf("prefers-color-scheme: dark gives background %s (light %s), want a dark one", dark, light)
		}
		b.screenshot(mode + "-home-dark")
	})

	t.Run("markup in a record", func(t *testing.T) {
		b.t = t
		host := "host/" + xssSlug + ".html"
		// The home page first, where the form's checks left it: what its
		// markup would run, it ran as it loaded.
		for _, p := range []string{page.Path(page.Home, ""), host, page.Path(page.Fleet, ""), "search.html?q=xss"} {
			b.stay(base + p)
			time.Sleep(100 * time.Millisecond) // onload and onerror handlers would have run
			var ran bool
			ran = eval[bool](b, `window.__xss !== undefined`)
			if ran {
				var v any
				v = eval[any](b, `window.__xss`)
				t.Errorf("%s: the record's markup ran (window.__xss = %v)", p, v)
			}
			if p != host {
				continue
			}
			text := eval[string](b, `document.body.innerText`)
			for _, s := range []string{"<script>window.__xss=1</script>", "<svg onload=window.__xss=3>"} {
				if !strings.Contains(text, s) {
					t.Errorf("the host page does not show %q as text", s)
				}
			}
		}
	})

	layout("tree keyboard", func(t *testing.T) {
		b.t = t
		trees, _ := filepath.Glob(filepath.Join(out, "tree", "*.html"))
		var tree string
		for _, f := range trees {
			if filepath.Base(f) != "index.html" {
				tree = "tree/" + filepath.Base(f)
				break
			}
		}
		if tree == "" {
			t.Fatal("no tree page built")
		}
		b.open(base + tree)
		var n int
		n = eval[int](b, `(() => { const d = Array.from(document.querySelectorAll("details")).filter(d => !d.open); d.forEach((x, i) => x.dataset.kbt = i); return d.length })()`)
		if n == 0 {
			t.Fatalf("%s has no closed <details> to expand", tree)
		}
		// Enter on a focused summary opens it; Space closes it again.
		if tag := eval[string](b, `document.querySelector('details[data-kbt="0"]').scrollIntoView(); document.querySelector('details[data-kbt="0"] > summary').focus(); document.activeElement.tagName`); tag != "SUMMARY" {
			t.Fatalf("focus is on %s, not the summary", tag)
		}
		var open bool
		for _, step := range []struct {
			key  string
			want bool
		}{{"\r", true}, {" ", false}} {
			if err := b.do(chromedp.KeyEvent(step.key)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			open = eval[bool](b, `document.querySelector('details[data-kbt="0"]').open`)
			if open != step.want {
				t.Errorf("%s: after %q the node is open=%v, want %v", tree, step.key, open, step.want)
			}
		}
	})

	t.Run("static search", func(t *testing.T) {
		b.t = t
		first := `(() => { const a = document.querySelector("#search-results li a"); return a ? a.getAttribute("href") : "" })()`
		b.open(base + "search.html?q=" + url.QueryEscape("15b3:1017"))
		if err := b.poll(first + `.endsWith("adapter/connectx-5.html")`); err != nil {
			var got string
			got = eval[string](b, first)
			t.Errorf("search.html?q=15b3:1017: first result %q, want adapter/connectx-5.html: %v", got, err)
		}
		if err := b.do(chromedp.Focus(chromedp.CSS("#search-q")), chromedp.KeyEvent(strings.Repeat("\b", 20)), chromedp.SendKeys(chromedp.CSS("#search-q"), "Failed to modify QP to RTR")); err != nil {
			t.Fatal(err)
		}
		if err := b.poll(first + `.endsWith("faq/gid-index-rtr.html")`); err != nil {
			var got string
			got = eval[string](b, first)
			t.Errorf("typing 'Failed to modify QP to RTR': first result %q, want faq/gid-index-rtr.html: %v", got, err)
		}
		// The page says what the line means and pages through all results.
		if err := b.poll(`document.getElementById("search-explain").innerText.includes("This line:")`); err != nil {
			t.Errorf("a pasted line's meaning is not shown: %v", err)
		}
		b.open(base + "search.html?q=mlx5")
		next := `document.querySelector("#search-pager button[data-page='1']")`
		if err := b.poll(next + ` !== null`); err != nil {
			t.Fatalf("search.html?q=mlx5: no second page of results: %v", err)
		}
		page1 := eval[string](b, first)
		if err := b.do(chromedp.Click(chromedp.CSS(`#search-pager button[data-page='1']`))); err != nil {
			t.Fatal(err)
		}
		if err := b.poll(`document.getElementById("search-results").start === 11 && ` + first + ` !== ` + strconv.Quote(page1)); err != nil {
			t.Errorf("the second page of mlx5 does not show results 11 on: %v", err)
		}
		// A typo is searched as the name it is closest to.
		b.open(base + "search.html?q=conectx6")
		if err := b.poll(first + `.endsWith("adapter/connectx-6.html") && document.getElementById("search-explain").innerText.includes("Did you mean ConnectX-6")`); err != nil {
			t.Errorf("search.html?q=conectx6: no ConnectX-6 and did you mean: %v", err)
		}
		// A query of words too common to index says what to search for,
		// as kbgen search does.
		b.open(base + "search.html?q=support")
		if err := b.poll(`document.getElementById("search-status").innerText.startsWith("No results") && document.querySelector("#search-explain a[href$='index.html#will']") !== null`); err != nil {
			t.Errorf("search.html?q=support: no pointer to the Will it work? form: %v", err)
		}
		b.screenshot(mode + "-search")
	})

	t.Run("404 below the top level", func(t *testing.T) {
		b.t = t
		// A static host (and kbgen serve) answers a missing page at any
		// depth with 404.html; from file:// it is opened where it lies.
		pre, preReq := b.drain() // the other subtests', checked with the mode's
		defer func() {
			b.mu.Lock()
			b.problems, b.requests = append(pre, b.problems...), append(preReq, b.requests...)
			b.mu.Unlock()
		}()
		missing := "adapter/connectx-55.html"
		if mode == "file" {
			missing = page.Path(page.NotFound, "")
		}
		b.open(base + missing)
		var margin, nav, css string
		margin = eval[string](b, `getComputedStyle(document.body).marginTop`)
		nav = eval[string](b, `document.querySelector("header nav a").href`)
		css = eval[string](b, `document.querySelector("link[rel=stylesheet]").href`)
		if margin != "0px" || css != base+"style.css" {
			t.Errorf("%s: unstyled (body margin %s, stylesheet %s; want 0px and %sstyle.css)", missing, margin, css, base)
		}
		if nav != base+page.Path(page.Adapters, "") {
			t.Errorf("%s: the first navigation link goes to %s, want %s", missing, nav, base+page.Path(page.Adapters, ""))
		}
		b.screenshot(mode + "-404")
		// The missing page's own 404 is expected; nothing else may fail,
		// and nothing may be fetched from the missing page's folder.
		problems, requests := b.drain()
		for _, p := range problems {
			if !strings.Contains(p, "404 (Not Found) "+base+missing) {
				t.Errorf("console: %s", p)
			}
		}
		for _, r := range requests {
			if strings.HasPrefix(r, base+"adapter/") && r != base+missing {
				t.Errorf("%s fetched %s", missing, r)
			}
		}
	})

	layout("print", func(t *testing.T) {
		b.t = t
		if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
		b.open(base + page.Path(page.Adapter, "connectx-5"))
		if shown := eval[bool](b, `getComputedStyle(document.querySelector('header.top')).display != 'none'`); shown {
			t.Error("the site header prints")
		}
		// A PCI id or part number in the identity tables prints on one
		// line; broken anywhere, "15b3:1017" printed as three.
		lines := `[...document.querySelectorAll('#identity td:first-child > code')].filter(c => c.getClientRects().length > 1).map(c => c.textContent)`
		if broken := eval[[]string](b, lines); len(broken) > 0 {
			t.Errorf("identity ids broken across lines in print: %q", broken)
		}
		// Every explanation prints, as no script opens "Why each verdict".
		why := `[...document.querySelectorAll('details.why li')]`
		if n, hidden := eval[int](b, why+`.length`), eval[int](b, why+`.filter(e => e.getClientRects().length == 0).length`); n == 0 || hidden > 0 {
			t.Errorf("%d of %d explanations print", n-hidden, n)
		}
	})

	layout("390 px", func(t *testing.T) {
		b.t = t
		if err := b.do(chromedp.EmulateViewport(390, 844)); err != nil {
			t.Fatal(err)
		}
		defer b.do(chromedp.EmulateViewport(1280, 900))
		for _, p := range []string{page.Path(page.Home, ""), adaptersIndex, page.Path(page.Adapter, "connectx-5"), page.Path(page.Fleet, ""),
			"host/" + xssSlug + ".html", "host/mlx5-cx4lx-hpe-probe-failed.golden.html", page.Path(page.Stack, "mlnx-ofed"), page.Path(page.Driver, "mlx5_ib"), page.Path(page.FAQ, "roce-v1-vs-v2"), page.Path(page.FAQ, "work-completion-errors"), page.Path(page.FAQ, "mlx5-health"), "search.html?q=mlx5"} {
			if !exists(strings.SplitN(p, "?", 2)[0]) {
				t.Errorf("%s was not built", p)
				continue
			}
			b.open(base + p)
			var over int
			over = eval[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
			if over > 0 {
				t.Errorf("%s scrolls sideways at 390 px by %d px", p, over)
				b.screenshot(mode + "-390-" + strings.NewReplacer("/", "_", "?", "_").Replace(p))
			}
			// Tables stack their rows on a phone (each row a block of
			// labelled lines): none is left scrolling sideways in its box
			// but the verdict grid, whose distro column stays put, and the
			// sortable tables, whose headers sort.
			if wide := eval[[]string](b, `[...document.querySelectorAll('.scroll')].filter(e => e.scrollWidth > e.clientWidth && !e.querySelector('table.grid, table.sortable')).map(e => e.querySelector('th').textContent)`); len(wide) > 0 {
				t.Errorf("%s: at 390 px the tables headed %q scroll sideways instead of stacking", p, wide)
			}
		}
		if b.shot != "" {
			b.open(base + page.Path(page.Home, ""))
			b.screenshot(mode + "-home-390")
		}
	})
}

// luminance is the relative luminance of a CSS rgb()/rgba() colour, 0 to 1.
func luminance(css string) float64 {
	var r, g, bl float64
	s := strings.NewReplacer("rgba(", "", "rgb(", "", ")", "", ",", " ").Replace(css)
	if _, err := fmt.Sscan(s, &r, &g, &bl); err != nil {
		return 1
	}
	return (0.2126*r + 0.7152*g + 0.0722*bl) / 255
}
