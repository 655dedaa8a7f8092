package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/search"
	"github.com/rocekb/rocekb/internal/site"
	"github.com/rocekb/rocekb/internal/suggest"
)

type searchOptions struct {
	site   siteFlags
	query  string
	kind   string
	vendor string
	lang   string
	limit  int
	offset int
	json   bool
}

func newSearchCmd() *cobra.Command {
	o := &searchOptions{}
	c := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the knowledge base: identifiers, log lines, model names, questions",
		Long: `Search the matrix and content the way the site's search does: module
names, PCI ids, part numbers, firmware and kernel versions and error
messages are matched whole and by their parts; model aliases come from the
matrix (ConnectX-5, CX5, MT27800), also inside a longer identifier
(CONFIG_INFINIBAND_BNXT_RE), split in two (Connect x6) or as a firmware
version (14.32.1010 is ConnectX-4 Lx firmware); the page of the adapter,
driver, stack or distro named weighs more than pages that mention it. Chinese
text is searched by character pairs, and Chinese pages come first for it; a
known Japanese or Chinese word (ファームウェア, イーサネット, フロー制御) also
searches the English words it means.

A pasted log line is read without its syslog header, time stamp, PCI
addresses and other varying numbers; when it is a known message (a
kernel-log failure, a libibverbs or RDMA_CM error) the page that explains
it comes first and "this line:" says what it means. A short query with a
typo, or a model name with one in a longer query, is searched as the
closest known name with its digits (conectx6: ConnectX-6, Bluefild2:
BlueField-2), saying "did you mean". Host reports come after the knowledge
pages unless the query names a host.

Results are ranked, with the matching words marked **like this** in the
snippet. --json prints {"query", "did_you_mean", "explains": [{"template",
"url", "means"}], "total", "offset", "results": [{"url", "title", "kind",
"snippet", "score"}], "facets"} with snippets as HTML (<mark>).

The index is built from the matrix and content; its tables are kept in
the cache folder ($ROCEKB_CACHE_DIR, else rocekb in the user's cache
folder; "off" keeps none) and read back while the documents, the aliases
and kbgen itself are unchanged, so a search after an edit is never
answered from the old index.

Any query is taken as it is: a word that starts with a dash but is not
one of the flags below (-E- PSID mismatch, -22) is part of the query, and
everything after -- is.

Exit status 1 means no results.

Examples:
  kbgen search mlx5_core
  kbgen search 'Failed to modify QP to RTR'
  kbgen search --kind adapter CX5
  kbgen search --json 15b3:1017
  kbgen search -- -E- PSID mismatch
` + cli.ExitCodesHelp,
		// Flags are parsed here, not by cobra, so that a query may start
		// with a dash (see splitQueryArgs).
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, args []string) error {
			flags, words, help := splitQueryArgs(c.Flags(), args)
			if help {
				return c.Help()
			}
			if err := c.Flags().Parse(flags); err != nil {
				return c.FlagErrorFunc()(c, err)
			}
			if len(words) == 0 {
				return cli.Usagef("requires at least 1 arg(s), only received 0\nRun '%s --help' for usage.", c.CommandPath())
			}
			o.query = strings.Join(words, " ")
			return runSearch(c, o)
		},
	}
	o.site.register(c)
	fl := c.Flags()
	fl.StringVar(&o.kind, "kind", "", "only pages of this kind: adapter, vendor, driver, distro, stack, faq, tree, glossary")
	fl.StringVar(&o.vendor, "vendor", "", "only pages of this matrix vendor id, e.g. nvidia")
	fl.StringVar(&o.lang, "lang", "", "only pages in this language, e.g. en or zh")
	fl.IntVar(&o.limit, "limit", 10, "number of results")
	fl.IntVar(&o.offset, "offset", 0, "results to skip: --offset 10 shows the second page")
	fl.BoolVar(&o.json, "json", false, "print JSON")
	return c
}

func runSearch(c *cobra.Command, o *searchOptions) error {
	if len(o.query) > search.MaxQueryBytes {
		return cli.Usagef("query longer than %d bytes", search.MaxQueryBytes)
	}
	if o.limit < 1 {
		return cli.Usagef("--limit must be at least 1")
	}
	if o.offset < 0 {
		return cli.Usagef("--offset must not be negative")
	}
	cfg, err := o.site.resolve(c)
	if err != nil {
		return err
	}
	k, _, err := loadKB(c, cfg, kb.Options{SkipRecords: true, SkipGridLint: true, SkipBodyLinks: true})
	if err != nil {
		return err
	}
	// The documents are those of the pages a build writes without host
	// records, as the site yields them.
	s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content, SearchOnly: true})
	if err != nil {
		return cli.Usage(err) // the page model refuses the inputs, as kbgen build does
	}
	docs := s.Docs()
	facet := map[string]map[string]bool{"kind": {}, "vendor": {}, "lang": {}}
	for _, d := range docs {
		facet["kind"][d.Kind], facet["vendor"][d.Vendor], facet["lang"][d.Lang] = true, true, true
	}
	for _, f := range []struct{ name, v string }{{"kind", o.kind}, {"vendor", o.vendor}, {"lang", o.lang}} {
		if f.v != "" && !facet[f.name][f.v] {
			return cli.Usagef("unknown --%s %q%s", f.name, f.v, didYouMean(f.v, keys(facet[f.name])))
		}
	}
	ix, _, err := search.Cached(searchCache(cfg), cli.ProgramID(), docs, search.AliasesFrom(k.Matrix, k.Content.Glossary))
	if err != nil {
		return err
	}
	defer ix.Close()
	res, err := ix.Search(context.Background(), search.Query{Text: o.query, Kind: o.kind, Vendor: o.vendor, Lang: o.lang, Limit: o.limit, Offset: o.offset})
	if err != nil {
		return err
	}
	out := c.OutOrStdout()
	if o.json {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		printResults(out, res)
	}
	if len(res.Results) == 0 {
		return cli.Silent(cli.Failure)
	}
	return nil
}

// searchCache is the cache file of the search tables of the matrix and
// content cfg names, one per pair of folders (the file's key says which
// documents it indexes; see search.Cached); "" with no cache folder.
func searchCache(cfg config.Config) string {
	return cacheFile("search", cfg.Matrix, cfg.Content)
}

// cacheFile is the file of the cache folder that keeps one kind of work
// on the folders named, by their absolute paths (the file's own key says
// which inputs it was made from); "" with no cache folder.
func cacheFile(kind string, folders ...string) string {
	dir := cli.CacheDir()
	if dir == "" {
		return ""
	}
	abs := make([]string, len(folders))
	for i, f := range folders {
		abs[i], _ = filepath.Abs(f)
	}
	sum := sha256.Sum256([]byte(strings.Join(abs, "\x00")))
	return filepath.Join(dir, kind+"-"+hex.EncodeToString(sum[:8]))
}

// splitQueryArgs separates flags from the words of the query. An argument
// is a flag when it starts with -- (unknown ones are then reported), or
// when it is a cluster of defined one-letter flags (-h); any other word,
// dashes and all, belongs to the query, and so does everything after --.
// A flag that takes a value without = takes the next argument.
func splitQueryArgs(fs *pflag.FlagSet, args []string) (flags, words []string, help bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(words, args[i+1:]...), help
		case a == "--help" || a == "-h":
			help = true
		case strings.HasPrefix(a, "--"):
			flags = append(flags, a)
			name := strings.SplitN(a[2:], "=", 2)[0]
			if f := fs.Lookup(name); f != nil && !strings.Contains(a, "=") && f.NoOptDefVal == "" && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		case len(a) > 1 && a[0] == '-' && shorthands(fs, a[1:]):
			flags = append(flags, a)
			if f := fs.ShorthandLookup(a[len(a)-1:]); f.NoOptDefVal == "" && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		default:
			words = append(words, a)
		}
	}
	return flags, words, help
}

// shorthands reports whether every letter of s is a defined one-letter flag.
func shorthands(fs *pflag.FlagSet, s string) bool {
	for _, r := range s {
		if r > 127 || fs.ShorthandLookup(string(r)) == nil {
			return false
		}
	}
	return true
}

func printResults(w io.Writer, res *search.Results) {
	if res.DidYouMean != "" {
		fmt.Fprintf(w, "did you mean %q? showing its results\n", res.DidYouMean)
	}
	for _, e := range res.Explains {
		fmt.Fprintf(w, "this line: %s\n  explained in %s\n", e.Means, e.URL)
	}
	if len(res.Results) == 0 {
		fmt.Fprintf(w, "no results for %q\n", res.Query)
		if len(res.Explains) == 0 {
			fmt.Fprintln(w, "  search for an adapter, part number, PCI id, driver, distro or a pasted error line;\n  whether a configuration works: kbgen check (see kbgen check --help)")
		}
		return
	}
	for i, h := range res.Results {
		tag := h.Kind
		if h.Vendor != "" {
			tag += " · " + h.Vendor
		}
		if h.Lang != "" && h.Lang != "en" {
			tag += " · " + h.Lang
		}
		fmt.Fprintf(w, "%d. %s  [%s]  %s  (%.3f)\n", res.Offset+i+1, h.Title, tag, h.URL, h.Score)
		s := strings.NewReplacer("<mark>", "**", "</mark>", "**").Replace(h.Snippet)
		fmt.Fprintf(w, "   %s\n", html.UnescapeString(s))
	}
	var parts []string
	for _, f := range []struct {
		name string
		l    []search.FacetCount
	}{{"kind", res.Facets.Kind}, {"vendor", res.Facets.Vendor}, {"lang", res.Facets.Lang}} {
		var vs []string
		for _, c := range f.l {
			vs = append(vs, fmt.Sprintf("%s %d", c.Value, c.Count))
		}
		if len(vs) > 0 {
			parts = append(parts, f.name+": "+strings.Join(vs, ", "))
		}
	}
	fmt.Fprintf(w, "%d results · %s\n", res.Total, strings.Join(parts, " · "))
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// didYouMean names the closest candidate, when one is close enough, else
// lists a short set of candidates.
func didYouMean(got string, candidates []string) string {
	if c := suggest.Closest(got, candidates, 1); len(c) > 0 {
		return "; did you mean " + c[0] + "?"
	}
	if len(candidates) > 0 && len(candidates) <= 12 {
		return " (want one of: " + strings.Join(candidates, ", ") + ")"
	}
	return ""
}
