// Command harness is the end-to-end half of `make bench`: it generates the
// synthetic corpus, runs kbgen build and its peers (Hugo, Pagefind) side by
// side, interleaved, on the same machine, and prints ratios (ours/theirs).
// Raw results go to bench/results/ (gitignored). It measures; it never fails
// on a timing.
//
//	go run ./bench/harness -sizes smoke            # the CI smoke run
//	go run ./bench/harness -sizes smoke,10k,fleet -peers -runs 3
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rocekb/rocekb/internal/corpus"
	"github.com/rocekb/rocekb/internal/search"
)

type options struct {
	sizes     []string
	runs      int
	peers     bool // install and run Hugo and Pagefind
	kbgen     string
	results   string
	keepWork  bool
	buildOnly bool // measure kbgen build alone (the fleet size)
	clients   int  // concurrent /api/search clients
	requests  int  // requests per client
	queries   int  // browser queries timed, the first of browserQueries (0: all; negative: none, and no Chromium)
	// The knowledge base the corpus grows from: the bundled matrix/ and
	// content/ folders and the fixture hosts, unless a test names smaller.
	matrix, content, hosts string
}

func main() {
	var o options
	var sizes string
	flag.StringVar(&sizes, "sizes", "smoke", "comma-separated corpus sizes: smoke, 10k, fleet")
	flag.IntVar(&o.runs, "runs", 1, "runs of each measured command, interleaved with the peers")
	flag.BoolVar(&o.peers, "peers", false, "also run Hugo (Debian's hugo) and Pagefind (npm, in a temporary folder), installing them when missing")
	flag.StringVar(&o.kbgen, "kbgen", "bin/kbgen", "kbgen binary to measure")
	flag.StringVar(&o.results, "results", "bench/results", "folder for raw results")
	flag.BoolVar(&o.keepWork, "keep", false, "keep the generated corpora")
	flag.BoolVar(&o.buildOnly, "build-only", false, "measure only kbgen build (and peers), no rebuilds, searches or serve")
	flag.IntVar(&o.clients, "clients", 100, "concurrent /api/search clients on loopback")
	flag.IntVar(&o.requests, "requests", 50, "requests each /api/search client sends")
	flag.IntVar(&o.queries, "queries", 0, "queries timed in Chromium, the first of the harness's list (0: all, -1: none, Chromium not started)")
	flag.Parse()
	o.matrix, o.content, o.hosts = "matrix", "content", "testdata/hosts"
	o.sizes = strings.Split(sizes, ",")
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

// Measure is one timed command.
type Measure struct {
	Name      string  `json:"name"`
	Size      string  `json:"size"`
	Tool      string  `json:"tool"`
	WallS     float64 `json:"wall_s"`
	CPUS      float64 `json:"cpu_s"`
	SysS      float64 `json:"sys_s"` // of CPUS, the kernel's: writing and removing a 3.5 GB site costs as much as some builds' user CPU
	MaxRSSKiB int64   `json:"max_rss_kib"`
	Pages     int     `json:"pages,omitempty"`
	Bytes     int64   `json:"bytes,omitempty"`
	Files     int     `json:"files,omitempty"`
	Note      string  `json:"note,omitempty"`
}

// Report is everything one harness run measured.
type Report struct {
	Date     string   `json:"date"`
	GoOS     string   `json:"goos"`
	CPUs     int      `json:"cpus"`
	Versions []string `json:"versions"`
	// WorkFS is the file system of the folder the builds write to (stat
	// -f): creating files costs what it costs there, and differs widely
	// (an ext4 without a journal scans past inodes freed in the last 30
	// seconds on every create; tmpfs writes to memory). TMPDIR moves it.
	WorkFS   string    `json:"work_fs"`
	Measures []Measure `json:"measures"`
}

func run(o options, out io.Writer) error {
	rep := &Report{Date: time.Now().UTC().Format(time.RFC3339), GoOS: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU()}
	kbgen, err := filepath.Abs(o.kbgen)
	if err != nil {
		return err
	}
	if _, err := os.Stat(kbgen); err != nil {
		return fmt.Errorf("%s: %w (run make build first)", o.kbgen, err)
	}
	rep.Versions = append(rep.Versions, "kbgen "+firstLine(kbgen, "--version"), runtime.Version())
	var hugo, pagefind string
	if o.peers {
		if hugo, err = ensureHugo(); err != nil {
			return err
		}
		if pagefind, err = ensurePagefind(); err != nil {
			return err
		}
		rep.Versions = append(rep.Versions, firstLine(hugo, "version"), "pagefind "+firstLine(pagefind, "--version"))
	}
	work, err := os.MkdirTemp("", "rocekb-bench-")
	if err != nil {
		return err
	}
	if !o.keepWork {
		defer os.RemoveAll(work)
	}
	rep.WorkFS = firstLine("stat", "-f", "-c", "%T", work)
	fmt.Fprintf(out, "work folder %s: file system %s (TMPDIR moves it)\n", work, rep.WorkFS)
	in := corpus.Inputs{Matrix: os.DirFS(o.matrix), Content: os.DirFS(o.content), Hosts: os.DirFS(o.hosts)}
	for _, name := range o.sizes {
		s, err := corpus.SizeNamed(name)
		if err != nil {
			return err
		}
		dir := filepath.Join(work, s.Name)
		t0 := time.Now()
		if err := corpus.Write(dir, in, s, corpus.Seed); err != nil {
			return fmt.Errorf("write corpus %s: %w", s.Name, err)
		}
		fmt.Fprintf(out, "corpus %s: %d adapters, %d FAQ pages, %d records added (%.1fs)\n", s.Name, s.Adapters, s.FAQ, s.Hosts, time.Since(t0).Seconds())
		kb := filepath.Join(dir, "kb")
		// Each timed build writes into a folder of its own, and nothing is
		// removed until the work folder is: on this project's VM (ext4
		// without a journal), creating files within about five minutes of
		// removing many costs several times the system CPU (100,000 files
		// of 31 KB: 4.5 s of system CPU fresh, 14.1 s 61 s after removing
		// as many and syncing, 2.8 s 310 s after), which the removal of
		// the previous run's output had charged to every build but the
		// first. The last run's folders become public for what follows.
		public, hpublic := filepath.Join(dir, "public"), filepath.Join(dir, "hugo", "public")
		for i := 0; i < o.runs; i++ {
			last := i == o.runs-1
			pub := filepath.Join(dir, fmt.Sprintf("public-%d", i))
			m, err := timed("build", s.Name, "kbgen", kb, kbgen, "build", "--out", pub)
			if err != nil {
				return err
			}
			m.Pages = countFiles(pub, ".html")
			m.Bytes, m.Files = treeSize(filepath.Join(pub, "search"))
			if m.Files > 0 {
				m.Note = "bytes/files: the static search index"
			}
			rep.add(out, m)
			if i == 0 {
				for _, m := range outputSizes(pub) {
					m.Size = s.Name
					rep.add(out, m)
				}
			}
			if last {
				if err := os.Rename(pub, public); err != nil {
					return err
				}
			}
			if hugo != "" {
				hdir := filepath.Join(dir, "hugo")
				hpub := fmt.Sprintf("public-%d", i)
				m, err := timed("build", s.Name, "hugo", hdir, hugo, "--quiet", "--destination", hpub)
				if err != nil {
					return err
				}
				m.Pages = countFiles(filepath.Join(hdir, hpub), ".html")
				rep.add(out, m)
				if i == 0 {
					m := Measure{Name: "output", Size: s.Name, Tool: "hugo", Note: "the whole public folder"}
					m.Bytes, m.Files = treeSize(filepath.Join(hdir, hpub))
					rep.add(out, m)
				}
				m, err = timed("index", s.Name, "pagefind", hdir, pagefind, "--site", hpub)
				if err != nil {
					return err
				}
				m.Bytes, m.Files = treeSize(filepath.Join(hdir, hpub, "pagefind"))
				rep.add(out, m)
				if last {
					if err := os.Rename(filepath.Join(hdir, hpub), hpublic); err != nil {
						return err
					}
				}
			}
		}
		if !o.buildOnly {
			for i := 0; i < o.runs; i++ {
				if err := rebuilds(rep, out, s.Name, kb, kbgen, public); err != nil {
					return err
				}
			}
		}
		if o.buildOnly {
			continue
		}
		for _, sp := range []searchPage{ourSearch, pagefindSearch} {
			if o.queries < 0 {
				break
			}
			site := public
			if sp.tool == "pagefind" {
				if pagefind == "" {
					continue
				}
				site = hpublic
				if err := writePagefindPage(site); err != nil {
					return err
				}
			}
			ms, err := browserLatency(site, sp, o.queries)
			if err != nil {
				rep.add(out, Measure{Name: "query", Size: s.Name, Tool: sp.tool, Note: "not measured: " + err.Error()})
				continue
			}
			for _, m := range ms {
				m.Size = s.Name
				rep.add(out, m)
			}
		}
		if ms, err := staticFirstQuery(public); err != nil {
			rep.add(out, Measure{Name: "static-first-query", Size: s.Name, Tool: "kbgen", Note: "not measured: " + err.Error()})
		} else {
			for _, m := range ms {
				m.Size = s.Name
				rep.add(out, m)
			}
		}
		for _, cache := range []int{0, 1024} {
			if ms, err := searchLoad(kbgen, kb, public, o.clients, o.requests, cache); err != nil {
				rep.add(out, Measure{Name: "api-search", Size: s.Name, Tool: "kbgen", Note: "not measured: " + err.Error()})
			} else {
				for _, m := range ms {
					m.Size = s.Name
					rep.add(out, m)
				}
			}
		}
		if d, err := serveReload(kbgen, kb, public); err != nil {
			rep.add(out, Measure{Name: "serve-reload", Size: s.Name, Tool: "kbgen", Note: "not measured: " + err.Error()})
		} else {
			rep.add(out, Measure{Name: "serve-reload", Size: s.Name, Tool: "kbgen", WallS: d.Seconds(), Note: "FAQ page edited until the served page changed"})
		}
	}
	rep.ratios(out)
	return rep.save(o.results)
}

// rebuilds times a build into the existing output folder, then one after
// a FAQ page changed.
func rebuilds(rep *Report, out io.Writer, size, kb, kbgen, public string) error {
	m, err := timed("rebuild", size, "kbgen", kb, kbgen, "build", "--out", public)
	if err != nil {
		return err
	}
	m.Note = "into the existing output folder"
	rep.add(out, m)
	if err := touchOneFAQ(kb); err != nil {
		return err
	}
	m, err = timed("incremental", size, "kbgen", kb, kbgen, "build", "--out", public)
	if err != nil {
		return err
	}
	m.Note = "after one FAQ page changed"
	rep.add(out, m)
	return nil
}

func (r *Report) add(out io.Writer, m Measure) {
	r.Measures = append(r.Measures, m)
	fmt.Fprintf(out, "%-12s %-6s %-9s wall %7.2fs  cpu %7.2fs (sys %6.2fs)  rss %7.1f MiB", m.Name, m.Size, m.Tool, m.WallS, m.CPUS, m.SysS, float64(m.MaxRSSKiB)/1024)
	if m.Pages > 0 && m.WallS > 0 {
		fmt.Fprintf(out, "  %d pages (%.0f/s)", m.Pages, float64(m.Pages)/m.WallS)
	}
	switch {
	case m.Files > 0:
		fmt.Fprintf(out, "  %d bytes in %d files", m.Bytes, m.Files)
	case m.Bytes > 0:
		fmt.Fprintf(out, "  %d bytes", m.Bytes)
	}
	if m.Note != "" {
		fmt.Fprintf(out, "  (%s)", m.Note)
	}
	fmt.Fprintln(out)
}

// ratios prints ours/theirs for every size where both ran, using the median
// of the runs.
func (r *Report) ratios(out io.Writer) {
	med := func(name, size, tool string, f func(Measure) float64) float64 {
		var v []float64
		for _, m := range r.Measures {
			if m.Name == name && m.Size == size && m.Tool == tool {
				v = append(v, f(m))
			}
		}
		if len(v) == 0 {
			return 0
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	wall := func(m Measure) float64 { return m.WallS }
	rss := func(m Measure) float64 { return float64(m.MaxRSSKiB) }
	sizes := map[string]bool{}
	for _, m := range r.Measures {
		sizes[m.Size] = true
	}
	names := make([]string, 0, len(sizes))
	for s := range sizes {
		names = append(names, s)
	}
	sort.Strings(names)
	for _, s := range names {
		ours, hugo, pf := med("build", s, "kbgen", wall), med("build", s, "hugo", wall), med("index", s, "pagefind", wall)
		if hugo == 0 {
			continue
		}
		fmt.Fprintf(out, "ratio %-6s build wall kbgen/hugo %.2f×  kbgen/(hugo+pagefind) %.2f×  peak RSS kbgen/hugo %.2f×\n",
			s, ours/hugo, ours/(hugo+pf), med("build", s, "kbgen", rss)/med("build", s, "hugo", rss))
		if pc := med("query-cold", s, "pagefind", wall); pc > 0 {
			bytes := func(m Measure) float64 { return float64(m.Bytes) }
			fmt.Fprintf(out, "ratio %-6s first query kbgen/pagefind: cold latency %.2f×, bytes loaded %.2f×; index bytes %.2f×, files %.2f×\n", s,
				med("query-cold", s, "kbgen", wall)/pc, med("query-cold", s, "kbgen", bytes)/med("query-cold", s, "pagefind", bytes),
				med("build", s, "kbgen", bytes)/med("index", s, "pagefind", bytes),
				med("build", s, "kbgen", func(m Measure) float64 { return float64(m.Files) })/med("index", s, "pagefind", func(m Measure) float64 { return float64(m.Files) }))
		}
		if full, inc := med("build", s, "kbgen", wall), med("incremental", s, "kbgen", wall); full > 0 && inc > 0 { // -build-only times no rebuild
			fmt.Fprintf(out, "ratio %-6s kbgen build after one FAQ change/full %.2f×; kbgen serve's update, edit to served page/full %.2f×\n", s,
				inc/full, med("serve-reload", s, "kbgen", wall)/full)
		}
	}
}

func (r *Report) save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	name := filepath.Join(dir, "harness-"+strings.NewReplacer(":", "", "-", "").Replace(r.Date)+".json")
	return os.WriteFile(name, append(data, '\n'), 0o644)
}

// timed runs a command under /usr/bin/time -v when it exists (for peak RSS),
// else with Go's own accounting.
func timed(name, size, tool, dir, bin string, args ...string) (Measure, error) {
	m := Measure{Name: name, Size: size, Tool: tool}
	var stderr bytes.Buffer
	argv := append([]string{bin}, args...)
	useTime := false
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		argv = append([]string{"/usr/bin/time", "-v"}, argv...)
		useTime = true
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	m.WallS = time.Since(t0).Seconds()
	if err != nil {
		return m, fmt.Errorf("%s %s: %v\n%s", tool, strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	if ps := cmd.ProcessState; ps != nil {
		m.CPUS = (ps.UserTime() + ps.SystemTime()).Seconds()
		m.SysS = ps.SystemTime().Seconds()
	}
	if useTime {
		sc := bufio.NewScanner(&stderr)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if v, ok := strings.CutPrefix(line, "Maximum resident set size (kbytes): "); ok {
				m.MaxRSSKiB, _ = strconv.ParseInt(v, 10, 64)
			}
		}
	}
	return m, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func firstLine(bin string, args ...string) string {
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		return "unknown"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

func countFiles(dir, ext string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
			n++
		}
		return nil
	})
	return n
}

func treeSize(dir string) (int64, int) {
	var total int64
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
				n++
			}
		}
		return nil
	})
	return total, n
}

// outputSizes measures a kbgen site: the whole output folder, and the
// median and largest adapter page (the target is a median).
func outputSizes(public string) []Measure {
	all := Measure{Name: "output", Tool: "kbgen", Note: "the whole public folder"}
	all.Bytes, all.Files = treeSize(public)
	pages, _ := filepath.Glob(filepath.Join(public, "adapter", "*.html"))
	var sizes []int64
	for _, p := range pages {
		if filepath.Base(p) == "index.html" {
			continue
		}
		if fi, err := os.Stat(p); err == nil {
			sizes = append(sizes, fi.Size())
		}
	}
	if len(sizes) == 0 {
		return []Measure{all}
	}
	slices.Sort(sizes)
	return []Measure{all,
		{Name: "adapter-page", Tool: "kbgen", Bytes: sizes[len(sizes)/2], Note: fmt.Sprintf("median of %d adapter pages", len(sizes))},
		{Name: "adapter-page", Tool: "kbgen", Bytes: sizes[len(sizes)-1], Note: "the largest adapter page"},
	}
}

// touchOneFAQ appends a sentence to the first FAQ page, as an author would.
func touchOneFAQ(kb string) error {
	pages, _ := filepath.Glob(filepath.Join(kb, "content", "faq", "*.md"))
	if len(pages) == 0 {
		return errors.New("corpus has no FAQ pages")
	}
	sort.Strings(pages)
	f, err := os.OpenFile(pages[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "\nEdited at %d.\n", time.Now().UnixNano())
	return err
}

// serveReload starts kbgen serve on a free loopback port, edits a FAQ page,
// and measures how long until the served page shows the edit.
func serveReload(kbgen, kb, public string) (time.Duration, error) {
	addr, stop, err := startServe(kbgen, kb, public)
	if err != nil {
		return 0, err
	}
	defer stop()
	pages, _ := filepath.Glob(filepath.Join(kb, "content", "faq", "*.md"))
	sort.Strings(pages)
	if len(pages) == 0 {
		return 0, errors.New("no FAQ pages")
	}
	page := "http://" + addr + "/faq/" + strings.TrimSuffix(filepath.Base(pages[0]), ".md") + ".html"
	client := &http.Client{Timeout: 2 * time.Second}
	get := func() string {
		resp, err := client.Get(page)
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	deadline := time.Now().Add(10 * time.Second)
	for get() == "" {
		if time.Now().After(deadline) {
			return 0, errors.New("serve did not answer")
		}
		time.Sleep(50 * time.Millisecond)
	}
	mark := fmt.Sprintf("reload-mark-%d", time.Now().UnixNano())
	f, err := os.OpenFile(pages[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	fmt.Fprintf(f, "\n%s\n", mark)
	f.Close()
	for time.Since(t0) < 5*time.Minute {
		if strings.Contains(get(), mark) {
			return time.Since(t0), nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0, errors.New("the edit did not show within 5 minutes (serve does not rebuild)")
}

// startServe runs kbgen serve on a free loopback port (building public and
// watching the inputs) and waits until it answers; stop ends it.
func startServe(kbgen, kb, public string, args ...string) (addr string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr = ln.Addr().String()
	ln.Close()
	cmd := exec.Command(kbgen, append([]string{"serve", "--addr", addr, "--out", public}, args...)...)
	cmd.Dir = kb
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() { cmd.Process.Kill(); cmd.Wait() }
	client := &http.Client{Timeout: time.Second}
	// serve builds the site before it listens: allow a full build.
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := client.Get("http://" + addr + "/"); err == nil {
			resp.Body.Close()
			return addr, stop, nil
		}
	}
	stop()
	return "", nil, errors.New("serve did not answer within 5 minutes")
}

// searchLoad sends the query set to /api/search from clients concurrent
// clients, each sending perClient requests, and reports p50 and p99; serve
// keeps cache answers for repeated queries (0: none, every request searches).
func searchLoad(kbgen, kb, public string, clients, perClient, cache int) ([]Measure, error) {
	queries, err := loadQueries("internal/search/testdata/queries.toml")
	if err != nil {
		return nil, err
	}
	addr, stop, err := startServe(kbgen, kb, public, "--search-cache", strconv.Itoa(cache))
	if err != nil {
		return nil, err
	}
	defer stop()
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Timeout: 10 * time.Second, Transport: tr}
	get := func(q string) (time.Duration, error) {
		t0 := time.Now()
		resp, err := client.Get("http://" + addr + "/api/search?q=" + url.QueryEscape(q))
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("/api/search answered %s", resp.Status)
		}
		return time.Since(t0), err
	}
	if _, err := get(queries[0]); err != nil { // also warms the index
		return nil, err
	}
	lat := make([][]time.Duration, clients)
	errs := make(chan error, clients)
	t0 := time.Now()
	for c := 0; c < clients; c++ {
		go func(c int) {
			for i := 0; i < perClient; i++ {
				d, err := get(queries[(c*perClient+i)%len(queries)])
				if err != nil {
					errs <- err
					return
				}
				lat[c] = append(lat[c], d)
			}
			errs <- nil
		}(c)
	}
	for c := 0; c < clients; c++ {
		if err := <-errs; err != nil {
			return nil, err
		}
	}
	wall := time.Since(t0)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) float64 { return all[int(p*float64(len(all)-1))].Seconds() }
	note := fmt.Sprintf("%d clients × %d requests, %.0f req/s, answer cache %d", clients, perClient, float64(len(all))/wall.Seconds(), cache)
	name := "api-search"
	if cache > 0 {
		name = "api-search-cached"
	}
	return []Measure{
		{Name: name + "-p50", Tool: "kbgen", WallS: pct(0.50), Note: note},
		{Name: name + "-p99", Tool: "kbgen", WallS: pct(0.99), Note: note},
	}, nil
}

// staticFirstQuery reports the bytes the site's search.js loads for the
// first query in a fresh page (manifest, the shards of the query's tokens
// and terms, the fragment files of the ten results), over the query set:
// the median and the largest, with the query that needs the most.
func staticFirstQuery(public string) ([]Measure, error) {
	queries, err := loadQueries("internal/search/testdata/queries.toml")
	if err != nil {
		return nil, err
	}
	ss, err := search.OpenStatic(os.DirFS(public))
	if err != nil {
		return nil, err
	}
	type load struct {
		q     string
		bytes int64
		files int
	}
	var loads []load
	for _, q := range queries {
		files, _, err := ss.FirstQuery(q, 10)
		if err != nil {
			return nil, err
		}
		l := load{q: q, files: len(files)}
		for _, f := range files {
			fi, err := os.Stat(filepath.Join(public, filepath.FromSlash(f)))
			if err != nil {
				return nil, err
			}
			l.bytes += fi.Size()
		}
		loads = append(loads, l)
	}
	sort.Slice(loads, func(i, j int) bool { return loads[i].bytes < loads[j].bytes })
	med, top := loads[len(loads)/2], loads[len(loads)-1]
	return []Measure{
		{Name: "static-first-query-median", Tool: "kbgen", Bytes: med.bytes, Files: med.files, Note: fmt.Sprintf("%d queries of the query set", len(loads))},
		{Name: "static-first-query-max", Tool: "kbgen", Bytes: top.bytes, Files: top.files, Note: fmt.Sprintf("%q", top.q)},
	}, nil
}

// loadQueries reads the q = "..." lines of the search query set.
func loadQueries(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var qs []string
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "q = "); ok {
			if s, err := strconv.Unquote(v); err == nil {
				qs = append(qs, s)
			}
		}
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s holds no queries", name)
	}
	return qs, nil
}

func ensureHugo() (string, error) {
	if p, err := exec.LookPath("hugo"); err == nil {
		return p, nil
	}
	cmd := exec.Command("sh", "-c", "apt-get update -qq && apt-get install -y -qq --no-install-recommends hugo")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("install hugo: %v\n%s", err, tail(string(out), 1000))
	}
	return exec.LookPath("hugo")
}

// ensurePagefind installs the npm package pagefind into a cache folder
// outside the repository and returns its binary.
func ensurePagefind() (string, error) {
	dir := filepath.Join(os.TempDir(), "rocekb-bench-pagefind")
	bin := filepath.Join(dir, "node_modules", ".bin", "pagefind")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "pagefind")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install pagefind: %v\n%s", err, tail(string(out), 1000))
	}
	return bin, nil
}
