package treewalk

import (
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
)

// Step is one node on the path a walk took.
type Step struct {
	Node     string          `json:"node"`
	Question string          `json:"question,omitempty"`
	Check    string          `json:"check,omitempty"`
	Status   diagnose.Status `json:"status,omitempty"` // the check's outcome
	Answer   Answer          `json:"answer"`
	Why      string          `json:"why,omitempty"`
	Findings []string        `json:"findings,omitempty"` // keys of the findings behind the answer
}

// Walk is the path a host record takes through a troubleshooting tree.
type Walk struct {
	Tree     string   `json:"tree"`
	Title    string   `json:"title,omitempty"`
	Host     string   `json:"host"`
	Path     []Step   `json:"path"`
	Stop     string   `json:"stop"`     // node the walk ended at
	Complete bool     `json:"complete"` // it ended at a leaf: the likely cause
	Cause    string   `json:"cause,omitempty"`
	Fix      string   `json:"fix,omitempty"`
	Links    []string `json:"links,omitempty"`
}

// Tree answers a tree's questions from a host's diagnosis, starting at the
// tree's start node. It reads the check results the report already holds
// and runs no check again. A node with a check is answered by it: with yes_when
// "ok" (the default) yes means the check passed, with "finding" yes means
// it found its problem. A check without evidence, or a node without a check,
// stops the walk there, marked unknown.
func Tree(t *content.Tree, rep *diagnose.Report) Walk {
	w := Walk{Tree: t.ID, Title: t.Title, Host: rep.Host}
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
	return strings.Join(parts, "; ")
}

// Trees walks every tree in c for a host's diagnosis, in tree id order, so
// a host report can show each path taken. c may be nil.
func Trees(c *content.Content, rep *diagnose.Report) []Walk {
	if c == nil {
		return nil
	}
	trees := append([]*content.Tree(nil), c.Trees...)
	sort.Slice(trees, func(i, j int) bool { return trees[i].ID < trees[j].ID })
	walks := make([]Walk, 0, len(trees))
	for _, t := range trees {
		walks = append(walks, Tree(t, rep))
	}
	return walks
}
