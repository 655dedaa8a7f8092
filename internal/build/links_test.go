package build

import (
	"html"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var script = regexp.MustCompile(`(?s)<script>.*?</script>`) // inline code, not markup

// attrValues returns the values of the attributes named in page, as
// regexp `\s(?:name1|name2)="([^"]*)"` finds them, in order: a scan for
// `="` is several times faster than that regexp, which has no literal
// prefix to look for and ran its NFA over every byte of every page.
func attrValues(page string, names ...string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(page[i:], `="`)
		if j < 0 {
			return out
		}
		j += i // at the '='
		i = j + 1
		for _, n := range names {
			k := j - len(n)
			if k < 1 || page[k:j] != n || !strings.ContainsRune("\t\n\f\r ", rune(page[k-1])) {
				continue
			}
			if end := strings.IndexByte(page[j+2:], '"'); end >= 0 {
				out = append(out, page[j+2:j+2+end])
				i = j + 2 + end + 1
			}
			break
		}
	}
}

// TestNoBrokenLinks crawls every page of the shared bundled build and
// fails on a link to a file the build did not write or to an anchor the
// page it names does not have; and on a folder without an index.html.
func TestNoBrokenLinks(t *testing.T) {
	t.Parallel()
	_, out := sharedSite(t)
	built := sharedFiles(t)
	files := map[string]bool{}
	dirs := map[string]bool{}
	pages := map[string]string{}
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			dirs[rel] = true
			return nil
		}
		files[rel] = true
		if strings.HasSuffix(rel, ".html") {
			pages[rel] = script.ReplaceAllString(string(built[rel]), "")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for d := range dirs {
		if !files[path.Join(d, "index.html")] {
			t.Errorf("folder %s/ has no index.html", d)
		}
	}
	ids := map[string]map[string]bool{}
	idsOf := func(p string) map[string]bool {
		if m, ok := ids[p]; ok {
			return m
		}
		m := map[string]bool{}
		for _, v := range attrValues(pages[p], "id", "name") {
			m[html.UnescapeString(v)] = true
		}
		ids[p] = m
		return m
	}
	var broken []string
	names := make([]string, 0, len(pages))
	for p := range pages {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		for _, v := range attrValues(pages[p], "href", "src") {
			raw := html.UnescapeString(v)
			u, err := url.Parse(raw)
			if err != nil {
				broken = append(broken, p+": unparsable "+raw)
				continue
			}
			if u.Scheme != "" || u.Host != "" || strings.HasPrefix(raw, "//") {
				continue // off the site
			}
			target := p
			if u.Path != "" {
				if strings.HasPrefix(u.Path, "/") {
					broken = append(broken, p+": root-relative "+raw)
					continue
				}
				target = path.Join(path.Dir(p), u.Path)
				if strings.HasSuffix(u.Path, "/") || dirs[target] {
					target = path.Join(target, "index.html")
				}
				if strings.HasPrefix(target, "..") || !files[target] {
					broken = append(broken, p+": "+raw)
					continue
				}
			}
			if u.Fragment != "" && strings.HasSuffix(target, ".html") && !idsOf(target)[u.Fragment] {
				broken = append(broken, p+": anchor "+raw)
			}
		}
	}
	for _, b := range broken {
		t.Errorf("broken link in %s", b)
	}
	if len(pages) < 100 {
		t.Errorf("crawled only %d pages", len(pages))
	}
}

// TestFormLinksLand: the will-it-work form (will.js) sends a reader to
// adapter/<id>.html#d-<distro>; every distro row of every adapter grid
// must carry that anchor.
func TestFormLinksLand(t *testing.T) {
	t.Parallel()
	files := sharedFiles(t)
	js, ok := files["will.js"]
	if !ok {
		t.Fatal("the shared build has no will.js")
	}
	if !strings.Contains(string(js), `"#d-" + encodeURIComponent(t)`) {
		t.Fatal(`will.js no longer links a distro's grid row as #d-<distro>: update this test and the adapter template together`)
	}
	rowLink := regexp.MustCompile(`<a( id="d-[^"]*")? href="\.\./distro/([^"]+)\.html">`)
	rows := 0
	for p, b := range files {
		if ok, _ := path.Match("adapter/*.html", p); !ok {
			continue
		}
		s := string(b)
		i := strings.Index(s, `<table class="grid">`)
		if i < 0 {
			continue
		}
		s = s[i:]
		s = s[:strings.Index(s, "</table>")]
		for _, m := range rowLink.FindAllStringSubmatch(s, -1) {
			rows++
			if m[1] != ` id="d-`+m[2]+`"` {
				t.Errorf("%s: the grid row of %s has no anchor d-%s", path.Base(p), m[2], m[2])
			}
		}
	}
	if rows < 1000 {
		t.Errorf("found only %d grid rows", rows)
	}
}
