package report

import (
	"fmt"
	"github.com/rocekb/rocekb/internal/readiness"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/fleet"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/treewalk"
	"github.com/rocekb/rocekb/internal/verdict"
)

// Output is what kbgen check found, built once. Exactly one of Verdict,
// Walks, Results, Findings and Hosts is set; Text and JSON both read it.
type Output struct {
	Verdict  *verdict.Verdict   `json:"verdict,omitempty"`
	Walks    []treewalk.Walk    `json:"walks,omitempty"`
	Results  []HostResult       `json:"results,omitempty"`  // --explain of a check without a finding
	Findings []diagnose.Finding `json:"findings,omitempty"` // --explain
	Hosts    []*diagnose.Report `json:"hosts,omitempty"`
	Fleet    *fleet.Summary     `json:"fleet,omitempty"` // with two hosts or more
	// Readiness is the fleet judged against a target plan (kbgen check
	// records/ --distro … --stack …).
	Readiness *readiness.Report `json:"readiness,omitempty"`

	Matrix *matrix.Matrix `json:"-"` // names the adapters in the text
	Tree   *content.Tree  `json:"-"` // the tree Walks walked
}

// HostResult is one check's result on one host, for --explain without a finding.
type HostResult struct {
	Host   string          `json:"host"`
	Result diagnose.Result `json:"result"`
}

// Hosts is the diagnosis of every host, with a fleet summary when there
// are several.
func Hosts(m *matrix.Matrix, reports []*diagnose.Report) Output {
	o := Output{Hosts: reports, Matrix: m}
	if len(reports) > 1 {
		f := fleet.Summarize(m, reports)
		o.Fleet = &f
	}
	return o
}

// Walks walks tree t for every host, from the checks each report holds.
func Walks(t *content.Tree, reports []*diagnose.Report) Output {
	o := Output{Tree: t, Walks: make([]treewalk.Walk, len(reports))}
	for i, r := range reports {
		o.Walks[i] = treewalk.Tree(t, r)
	}
	return o
}

// Verdict is the answer for a planned configuration.
func Verdict(v verdict.Verdict) Output { return Output{Verdict: &v} }

// NotJudged is the --explain key that lists, per host, the checks that
// could not judge for lack of evidence, with what each lacked.
const NotJudged = "not-judged"

// Explain picks the findings key names: a check id (all its findings) or
// check@subject. For a check without a finding it gives the check's notes
// on each host instead: why it passed or could not judge. The error says
// what key could have been.
func Explain(reports []*diagnose.Report, key string) (Output, error) {
	if key == NotJudged {
		return notJudged(reports), nil
	}
	var picked []diagnose.Finding
	for _, r := range reports {
		for _, f := range r.Findings {
			if f.Check == key || f.Key() == key {
				picked = append(picked, f)
			}
		}
	}
	id, subject, _ := strings.Cut(key, "@")
	if _, known := diagnose.Lookup(id); !known {
		return Output{}, fmt.Errorf("--explain %q: no such check (checks: %s)", key, strings.Join(diagnose.CheckIDs(), ", "))
	}
	if len(picked) > 0 {
		return Output{Findings: picked}, nil
	}
	var results []HostResult
	for _, r := range reports {
		res, _ := r.Result(id)
		var notes []diagnose.Note
		for _, n := range res.Notes {
			if subject == "" || n.Subject == subject {
				notes = append(notes, n)
			}
		}
		if len(notes) > 0 || subject == "" {
			res.Notes = notes
			results = append(results, HostResult{Host: r.Host, Result: res})
		}
	}
	if len(results) == 0 {
		return Output{}, fmt.Errorf("--explain %q: no such finding or subject on %s (findings: %s)", key, hostList(reports), findingKeys(reports))
	}
	return Output{Results: results}, nil
}

// Worst is the highest severity among the findings of reports, or "".
func Worst(reports []*diagnose.Report) diagnose.Severity {
	var w diagnose.Severity
	for _, r := range reports {
		if s := r.Worst(); s.Rank() > w.Rank() {
			w = s
		}
	}
	return w
}

// VerdictSeverity maps a verdict onto the severities: unsupported is an
// error, unknown and supported-with-conditions are warnings.
func VerdictSeverity(v verdict.Verdict) diagnose.Severity {
	switch v.Verdict {
	case verdict.Unsupported:
		return diagnose.Error
	case verdict.Undecided, verdict.Conditional:
		return diagnose.Warning
	}
	return ""
}

func hostList(rs []*diagnose.Report) string {
	var hs []string
	for _, r := range rs {
		hs = append(hs, r.Host)
	}
	return strings.Join(hs, ", ")
}

func findingKeys(rs []*diagnose.Report) string {
	var ks []string
	for _, r := range rs {
		for _, f := range r.Findings {
			if !slices.Contains(ks, f.Key()) {
				ks = append(ks, f.Key())
			}
		}
	}
	if len(ks) == 0 {
		return "none"
	}
	return strings.Join(ks, ", ")
}

// notJudged gives, for every host, each check that could not judge, with
// its unknown notes only.
func notJudged(reports []*diagnose.Report) Output {
	results := []HostResult{}
	for _, r := range reports {
		for _, id := range r.Unknown {
			res, _ := r.Result(id)
			var notes []diagnose.Note
			for _, n := range res.Notes {
				if n.Status == diagnose.Unknown {
					notes = append(notes, n)
				}
			}
			res.Notes = notes
			results = append(results, HostResult{Host: r.Host, Result: res})
		}
	}
	return Output{Results: results}
}

// WithLang keeps the FAQ links of the findings in one language: for each
// page, its variant in lang (faq/<slug>.<lang>) when there is one, else the
// page in the default language. lang "" or the default language keeps the
// default pages. The reports are copied, not changed.
func WithLang(o Output, lang, defaultLang string) Output {
	if lang == "" {
		lang = defaultLang
	}
	for i, r := range o.Hosts {
		c := *r
		c.Findings = localize(r.Findings, lang, defaultLang)
		o.Hosts[i] = &c
	}
	o.Findings = localize(o.Findings, lang, defaultLang)
	return o
}

func localize(fs []diagnose.Finding, lang, def string) []diagnose.Finding {
	if fs == nil {
		return nil
	}
	out := make([]diagnose.Finding, len(fs))
	for i, f := range fs {
		f.FAQ = pickLang(f.FAQ, lang, def)
		out[i] = f
	}
	return out
}

// pickLang keeps one link per page: faq/x.zh is the zh variant of faq/x.
func pickLang(links []string, lang, def string) []string {
	if len(links) == 0 {
		return links
	}
	has := map[string]bool{}
	for _, l := range links {
		has[l] = true
	}
	var out []string
	for _, l := range links {
		base, variant := splitLang(l)
		switch {
		case variant == "" && (lang == def || !has[base+"."+lang]):
			out = append(out, l)
		case variant != "" && variant == lang && lang != def:
			out = append(out, l)
		}
	}
	return out
}

// splitLang splits faq/x.zh into faq/x and zh; a link without a language
// suffix has variant "".
func splitLang(l string) (base, variant string) {
	i := strings.LastIndexByte(l, '.')
	if i < 0 || strings.ContainsRune(l[i:], '/') {
		return l, ""
	}
	v := l[i+1:]
	if len(v) < 2 || len(v) > 5 {
		return l, ""
	}
	return l[:i], v
}
