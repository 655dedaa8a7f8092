package rule

import "github.com/rocekb/rocekb/internal/matrix"

// SourceRef is a matrix [[source]] a rule rests on.
type SourceRef struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
	URL   string `json:"url,omitempty"`
}

// Href is a link for the source's URL, or "" when it is not one (a
// repository locator such as owner/repo:path@commit becomes the file at
// that commit): see matrix.Source.Href.
func (s SourceRef) Href() string { return (&matrix.Source{URL: s.URL}).Href() }

// Ref is a matrix entry a conclusion relied on.
type Ref struct {
	Entry      string      `json:"entry"`                // e.g. "adapter connectx-5", "firmware_min cisco-vic-1400 roce-v2-ipv6"
	At         string      `json:"at,omitempty"`         // matrix file:line:col
	Rule       string      `json:"rule"`                 // what the entry says
	Confidence string      `json:"confidence,omitempty"` // the claim's confidence tier
	Note       string      `json:"note,omitempty"`       // the claim's note
	Quote      string      `json:"quote,omitempty"`      // verbatim words of the source, for an offline reader
	Sources    []SourceRef `json:"sources,omitempty"`
}

// Cite describes a matrix entry, what it says (text) and the sources of
// its claim.
func Cite(m *matrix.Matrix, entry string, c matrix.Claim, text string) Ref {
	r := Ref{Entry: entry, Rule: text, Confidence: c.Confidence, Note: c.Note, Quote: c.Quote}
	if c.At.File != "" {
		r.At = c.At.String()
	}
	if len(c.Sources) > 0 {
		r.Sources = make([]SourceRef, 0, len(c.Sources)) // sized once: the grid cites millions
	}
	for _, id := range c.Sources {
		sr := SourceRef{ID: id}
		if s := m.Source(id); s != nil {
			sr.Title, sr.URL = s.Title, s.URL
		}
		r.Sources = append(r.Sources, sr)
	}
	return r
}
