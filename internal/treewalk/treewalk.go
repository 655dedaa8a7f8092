package treewalk

import (
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diagnose"
)

// Answer is a tree node's answer from the evidence.
type Answer string

const (
	Yes       Answer = "yes"
	No        Answer = "no"
	NoAnswer  Answer = "unknown" // no check, or the check lacks evidence: the walk stops here
	LeafReach Answer = "leaf"    // a leaf: the likely cause
	NotApply  Answer = "n/a"     // the tree is about hardware the host does not have
)

// SubjectAnswer is a node's answer for one device, port or adapter, when a
// check judged several and they differ.
type SubjectAnswer struct {
	Subject string `json:"subject"`
	Answer  Answer `json:"answer"`
	Why     string `json:"why,omitempty"`
}

// Step is one node on the path a walk took.
type Step struct {
	Node     string          `json:"node"`
	Question string          `json:"question,omitempty"`
	Check    string          `json:"check,omitempty"`
	Status   diagnose.Status `json:"status,omitempty"` // the check's outcome
	Answer   Answer          `json:"answer"`
	Why      string          `json:"why,omitempty"`
	Findings []string        `json:"findings,omitempty"` // keys of the findings behind the answer
	// Subjects answers the question per device (or port, or adapter) when
	// the check judged several subjects and their answers differ; the walk
	// follows the answer of the subjects with the problem.
	Subjects []SubjectAnswer `json:"subjects,omitempty"`
}

// Walk is the path a host record takes through a troubleshooting tree.
type Walk struct {
	Tree     string `json:"tree"`
	Title    string `json:"title,omitempty"`
	Host     string `json:"host"`
	Path     []Step `json:"path"`
	Stop     string `json:"stop"`     // node the walk ended at
	Complete bool   `json:"complete"` // it ended at a leaf: the likely cause
	// NotApplicable says the tree is about a vendor's hardware the host
	// does not have (its tags name a matrix vendor): it was not walked.
	NotApplicable bool     `json:"not_applicable,omitempty"`
	Why           string   `json:"why,omitempty"`
	Cause         string   `json:"cause,omitempty"`
	Fix           string   `json:"fix,omitempty"`
	Links         []string `json:"links,omitempty"`
}

// Tree answers a tree's questions from a host's diagnosis, starting at the
// tree's start node. It reads the check results the report already holds
// and runs no check again. A node with a check is answered by it: with yes_when
// "ok" (the default) yes means the check passed, with "finding" yes means
// it found its problem. A check without evidence, or a node without a check,
// stops the walk there, marked unknown.
func Tree(t *content.Tree, rep *diagnose.Report) Walk {
	w := Walk{Tree: t.ID, Title: t.Title, Host: rep.Host}
	if why, ok := applies(t, rep); !ok {
		w.NotApplicable, w.Why, w.Stop = true, why, t.Start
		w.Path = []Step{{Node: t.Start, Answer: NotApply, Why: why}}
		return w
	}
	seen := map[string]bool{}
	id := t.Start
	for {
		n := t.Node(id)
		if n == nil {
			w.Path = append(w.Path, Step{Node: id, Answer: NoAnswer, Why: "the tree has no node " + id})
			w.Stop = id
			return w
		}
		if seen[id] {
			w.Path = append(w.Path, Step{Node: id, Answer: NoAnswer, Why: "the tree loops back to " + id})
			w.Stop = id
			return w
		}
		seen[id] = true
		if n.Leaf() {
			w.Path = append(w.Path, Step{Node: id, Answer: LeafReach, Why: n.Cause})
			w.Stop, w.Complete, w.Cause, w.Fix, w.Links = id, true, n.Cause, n.Fix, n.Links
			return w
		}
		st := Step{Node: id, Question: n.Question, Check: n.Check}
		if n.Check == "" {
			st.Answer, st.Why = NoAnswer, "no check answers this question from a host record; ask it by hand: "+n.How
			w.Path = append(w.Path, st)
			w.Stop = id
			return w
		}
		r, ok := rep.Result(n.Check)
		if !ok {
			st.Answer, st.Why = NoAnswer, "the engine has no check "+n.Check
			w.Path = append(w.Path, st)
			w.Stop = id
			return w
		}
		st.Status = r.Status
		for _, f := range r.Findings {
			st.Findings = append(st.Findings, f.Key())
		}
		st.Why = resultWhy(r)
		if r.Status == diagnose.Unknown {
			st.Answer = NoAnswer
			w.Path = append(w.Path, st)
			w.Stop = id
			return w
		}
		found := r.Status == diagnose.Found
		yes := !found
		if n.YesWhen == "finding" {
			yes = found
		}
		st.Subjects = perSubject(r, n.YesWhen == "finding")
		next := n.No
		st.Answer = No
		if yes {
			next, st.Answer = n.Yes, Yes
		}
		w.Path = append(w.Path, st)
		if next == "" {
			w.Stop = id
			return w
		}
		id = next
	}
}

// resultWhy words a check result in one line for a tree step.
func resultWhy(r diagnose.Result) string {
	var parts []string
	switch r.Status {
	case diagnose.Found:
		for _, f := range r.Findings {
			parts = append(parts, f.Message)
		}
	case diagnose.Unknown:
		for _, n := range r.Notes {
			if n.Status == diagnose.Unknown {
				parts = append(parts, n.Text)
			}
		}
	default:
		for _, n := range r.Notes {
			parts = append(parts, n.Text)
		}
	}
	// The same message from several subjects is said once ("because: X; X").
	var out []string
	for _, p := range parts {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// Trees walks every tree in c that applies to the host (see applies), in
// tree id order, so a host report can show each path taken. c may be nil.
func Trees(c *content.Content, rep *diagnose.Report) []Walk {
	if c == nil {
		return nil
	}
	var trees []*content.Tree
	for _, t := range c.Trees {
		// A translation carries no checks: the walk is the original's.
		if t.Lang == "" || t.Lang == content.DefaultLang {
			trees = append(trees, t)
		}
	}
	sort.Slice(trees, func(i, j int) bool { return trees[i].ID < trees[j].ID })
	walks := make([]Walk, 0, len(trees))
	for _, t := range trees {
		if w := Tree(t, rep); !w.NotApplicable {
			walks = append(walks, w)
		}
	}
	return walks
}

// applies says whether a tree is for this host: a tree tagged with a matrix
// vendor id (cisco-vic-rocev2 carries "cisco") is about that vendor's
// hardware, and applies when the host has some, or when the record names
// no vendor at all (absent is not "none").
func applies(t *content.Tree, rep *diagnose.Report) (string, bool) {
	if rep.Vendors == nil {
		return "", true
	}
	var named []string
	for _, tag := range t.Tags {
		present, isVendor := rep.Vendors[tag]
		if !isVendor {
			continue
		}
		if present {
			return "", true
		}
		named = append(named, tag)
	}
	if len(named) == 0 {
		return "", true
	}
	return "the tree is about " + strings.Join(named, ", ") + " hardware, and the host has none", false
}

// perSubject gives each subject's answer when a check judged several
// subjects and they do not all agree: a finding's subject gets the
// problem's answer, a passing note's subject the other one.
func perSubject(r diagnose.Result, yesWhenFinding bool) []SubjectAnswer {
	problem, fine := No, Yes
	if yesWhenFinding {
		problem, fine = Yes, No
	}
	var out []SubjectAnswer
	seen := map[string]bool{}
	for _, f := range r.Findings {
		if seen[f.Subject] || f.Subject == "host" {
			continue
		}
		seen[f.Subject] = true
		out = append(out, SubjectAnswer{Subject: f.Subject, Answer: problem, Why: f.Message})
	}
	nProblem := len(out)
	for _, n := range r.Notes {
		if seen[n.Subject] || n.Subject == "host" {
			continue
		}
		seen[n.Subject] = true
		a := fine
		if n.Status == diagnose.Unknown {
			a = NoAnswer
		}
		out = append(out, SubjectAnswer{Subject: n.Subject, Answer: a, Why: n.Text})
	}
	if len(out) < 2 || nProblem == 0 || nProblem == len(out) {
		return nil // one subject, or all agree: the step's answer says it
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Subject < out[j].Subject })
	return out
}
