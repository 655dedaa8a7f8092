package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
)

// Severity says how much a finding matters. The reason for each check's
// choice is written beside the check.
type Severity string

const (
	Error   Severity = "error"   // RoCE cannot work, or a vendor requirement is broken
	Warning Severity = "warning" // works in part, or will change at the next reset
	Info    Severity = "info"    // worth knowing; nothing is broken by it
)

// Rank orders severities: error 3, warning 2, info 1, anything else 0.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// ParseSeverity accepts error, warning or info.
func ParseSeverity(s string) (Severity, bool) {
	v := Severity(strings.ToLower(strings.TrimSpace(s)))
	return v, v.Rank() > 0
}

// Status is the outcome of one check on one host.
type Status string

const (
	Pass    Status = "pass"    // the evidence shows no problem
	Found   Status = "finding" // the evidence shows the problem
	Unknown Status = "unknown" // the evidence needed is absent: absent is data, never a guess
)

// Evidence is one fact read from a host record, with where it came from.
type Evidence struct {
	Fact   string `json:"fact"`             // e.g. "0000:3b:00.0 firmware.running = 16.20.1010"
	Source string `json:"source,omitempty"` // record source id, e.g. "cmd/devlink dev info"
	Line   int    `json:"line,omitempty"`   // 1-based line in that source, when known
}

func (e Evidence) String() string {
	s := e.Fact
	if e.Source != "" {
		s += " [" + e.Source
		if e.Line > 0 {
			s += fmt.Sprintf(":%d", e.Line)
		}
		s += "]"
	}
	return s
}

// Finding is one problem a check found.
type Finding struct {
	Check       string     `json:"check"`
	Severity    Severity   `json:"severity"`
	Host        string     `json:"host,omitempty"`
	Subject     string     `json:"subject"`           // "host", a PCI address, an RDMA device, or device/port
	Adapter     string     `json:"adapter,omitempty"` // PCI address of the adapter behind the subject, when there is one
	Message     string     `json:"message"`           // the conclusion, in one line
	Explanation string     `json:"explanation"`       // why it matters
	Fix         string     `json:"fix"`
	Evidence    []Evidence `json:"evidence"`         // the facts
	Matrix      []rule.Ref `json:"matrix,omitempty"` // the rules
	FAQ         []string   `json:"faq,omitempty"`    // links: faq/<slug>
	Trees       []string   `json:"trees,omitempty"`  // links: tree/<id>
}

// Key names the finding for --explain: check@subject.
func (f Finding) Key() string { return f.Check + "@" + f.Subject }

// Note records why a subject passed or could not be judged.
type Note struct {
	Subject  string     `json:"subject"`
	Adapter  string     `json:"adapter,omitempty"`
	Status   Status     `json:"status"`
	Text     string     `json:"text"`
	Evidence []Evidence `json:"evidence,omitempty"`
	Matrix   []rule.Ref `json:"matrix,omitempty"`
}

// Result is what one check concluded about one host.
type Result struct {
	Check    string    `json:"check"`
	Status   Status    `json:"status"`
	Findings []Finding `json:"findings,omitempty"`
	Notes    []Note    `json:"notes,omitempty"`
}

// Evaluate runs one check on a host. The result's findings carry the check
// id and host, are sorted, and its status follows from them: any finding
// makes it a finding, else any unknown subject makes it unknown.
func Evaluate(m *matrix.Matrix, h *record.Host, id string) (Result, bool) {
	c, ok := Lookup(id)
	if !ok {
		return Result{}, false
	}
	return evaluate(c, newView(h, m)), true
}

// evaluate runs check c on the host of v, as Evaluate does.
func evaluate(c Check, v view) Result {
	h, id := v.h, c.ID
	r := c.run(v)
	r.Check = id
	for i := range r.Findings {
		r.Findings[i].Check = id
		r.Findings[i].Host = h.Host.ID
	}
	sortFindings(r.Findings)
	sort.SliceStable(r.Notes, func(i, j int) bool { return r.Notes[i].Subject < r.Notes[j].Subject })
	switch {
	case len(r.Findings) > 0:
		r.Status = Found
	case r.Status == "":
		r.Status = Pass
		for _, n := range r.Notes {
			if n.Status == Unknown {
				r.Status = Unknown
			}
		}
	}
	return r
}

// Report is the diagnosis of one host: every check, run.
type Report struct {
	Host     string    `json:"host"`
	Kernel   string    `json:"kernel,omitempty"`
	OS       string    `json:"os,omitempty"`
	Results  []Result  `json:"results"`  // one per check, by id
	Findings []Finding `json:"findings"` // every finding, most severe first
	Errors   int       `json:"errors"`
	Warnings int       `json:"warnings"`
	Infos    int       `json:"infos"`
	Unknown  []string  `json:"unknown,omitempty"` // ids of checks that could not be judged
	Snapshot Snapshot  `json:"snapshot"`          // what the snapshot lacked or got wrong

	// Vendors maps each matrix vendor id to whether the host has hardware
	// of it; nil when the record identifies no vendor (see hostVendors).
	// Trees tagged with a vendor apply only where it is present.
	Vendors map[string]bool `json:"-"`

	Record *record.Host `json:"-"`
}

// Diagnose runs every check on a host record. c may be nil; when given,
// findings link to the FAQ pages and trees that name their check.
func Diagnose(m *matrix.Matrix, c *content.Content, h *record.Host) *Report {
	return New(m, c).Diagnose(h)
}

// A Diagnoser diagnoses hosts against one matrix and content, indexing the
// content's links to checks once for all of them (a fleet build diagnoses
// every record against the same knowledge base).
type Diagnoser struct {
	m     *matrix.Matrix
	links Links
}

// New returns the diagnoser of hosts against m and c; c may be nil (see
// Diagnose). Neither may change while it is used.
func New(m *matrix.Matrix, c *content.Content) *Diagnoser {
	return &Diagnoser{m: m, links: LinksFrom(c)}
}

// Diagnose runs every check on a host record, as the package's Diagnose
// does; it may be called from several goroutines at once.
func (d *Diagnoser) Diagnose(h *record.Host) *Report {
	m, links := d.m, d.links
	rep := &Report{Host: h.Host.ID, Kernel: h.Host.KernelRelease, OS: h.Host.OS.PrettyName, Record: h, Findings: []Finding{}}
	if rep.OS == "" && h.Host.OS.ID != "" {
		rep.OS = strings.TrimSpace(h.Host.OS.ID + " " + h.Host.OS.VersionID)
	}
	// One view of the host for every check: what a check derives from
	// the record (its lookups, the matrix adapter of each function) is
	// derived once.
	v := newView(h, m)
	if m != nil {
		rep.Vendors = hostVendors(v)
	}
	rep.Snapshot = snapshotOf(h)
	hw := newHardware(v)
	rep.Results = make([]Result, 0, len(checks))
	for _, chk := range checks {
		r := evaluate(chk, v)
		for i := range r.Findings {
			links.attach(&r.Findings[i], hw)
		}
		rep.Results = append(rep.Results, r)
		rep.Findings = append(rep.Findings, r.Findings...)
		if r.Status == Unknown {
			rep.Unknown = append(rep.Unknown, chk.ID)
		}
	}
	sortFindings(rep.Findings)
	for _, f := range rep.Findings {
		switch f.Severity {
		case Error:
			rep.Errors++
		case Warning:
			rep.Warnings++
		case Info:
			rep.Infos++
		}
	}
	return rep
}

// Worst returns the highest severity among the findings, or "" when none.
func (r *Report) Worst() Severity {
	var w Severity
	for _, f := range r.Findings {
		if f.Severity.Rank() > w.Rank() {
			w = f.Severity
		}
	}
	return w
}

// Result returns the result of check id.
func (r *Report) Result(id string) (Result, bool) {
	for _, x := range r.Results {
		if x.Check == id {
			return x, true
		}
	}
	return Result{}, false
}

// sortFindings orders findings deterministically: host, most severe first,
// then adapter, subject and check.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		if a.Severity.Rank() != b.Severity.Rank() {
			return a.Severity.Rank() > b.Severity.Rank()
		}
		if a.Adapter != b.Adapter {
			return a.Adapter < b.Adapter
		}
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		return a.Check < b.Check
	})
}
