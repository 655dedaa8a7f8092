package site

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
)

// QNode is one node of a tree as the page nests it: a question with its
// yes and no branches inside it, or a leaf. A node reached a second time
// (trees may join) is not repeated: Seen links back to where it is.
type QNode struct {
	Page  *TreePage // for links from inside the nested template
	Node  *content.Node
	Open  bool // the start node shows its first question unfolded
	Seen  bool
	Yes   *QNode
	No    *QNode
	Depth int
}

// Nested returns the tree from its start node, nested yes/no; nodes the
// start does not reach follow as further roots, so none is lost.
func (t *TreePage) Nested() []*QNode {
	tr := t.Tree
	done := map[string]bool{}
	var walk func(id string, depth int) *QNode
	walk = func(id string, depth int) *QNode {
		n := tr.Node(id)
		if n == nil {
			return nil
		}
		q := &QNode{Page: t, Node: n, Depth: depth}
		if done[id] {
			q.Seen = true
			return q
		}
		done[id] = true
		q.Yes = walk(n.Yes, depth+1)
		q.No = walk(n.No, depth+1)
		return q
	}
	var out []*QNode
	if r := walk(tr.Start, 0); r != nil {
		r.Open = true
		out = append(out, r)
	}
	for i := range tr.Nodes {
		if !done[tr.Nodes[i].ID] {
			out = append(out, walk(tr.Nodes[i].ID, 0))
		}
	}
	return out
}

// Overview box sizes, in SVG units.
const (
	mapBoxW          = 168
	mapTextTop       = 35 // the baseline of a box's first line of text
	mapLineH         = 15
	mapLineUnits     = 24 // what a line of a box holds, a CJK character counting two
	mapGapX, mapGapY = 22, 38
	mapPad           = 10
)

// Map draws the tree as boxes and arrows, laid out top-down by depth
// from the start node (a node sits at its shortest depth), at build time.
// Each box links to its node on the page.
func (t *TreePage) Map() template.HTML {
	tr := t.Tree
	if len(tr.Nodes) == 0 {
		return ""
	}
	depth := map[string]int{}
	var rows [][]string
	queue := []string{tr.Start}
	if tr.Node(tr.Start) != nil {
		depth[tr.Start] = 0
	} else {
		queue = nil
	}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		d := depth[id]
		for len(rows) <= d {
			rows = append(rows, nil)
		}
		rows[d] = append(rows[d], id)
		n := tr.Node(id)
		for _, c := range []string{n.Yes, n.No} {
			if c == "" || tr.Node(c) == nil {
				continue
			}
			if _, ok := depth[c]; !ok {
				depth[c] = d + 1
				queue = append(queue, c)
			}
		}
	}
	// Nodes the start does not reach get a last row of their own.
	var loose []string
	for i := range tr.Nodes {
		if _, ok := depth[tr.Nodes[i].ID]; !ok {
			loose = append(loose, tr.Nodes[i].ID)
		}
	}
	if len(loose) > 0 {
		for _, id := range loose {
			depth[id] = len(rows)
		}
		rows = append(rows, loose)
	}
	widest := 0
	for _, r := range rows {
		widest = max(widest, len(r))
	}
	// Each box holds its id and its whole text, wrapped: the boxes of a
	// row are as tall as the longest text of the row needs, so no box cuts
	// its words and none is mostly empty.
	lines := map[string][]string{}
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		text := n.Question
		if n.Leaf() {
			text = n.Cause
		}
		lines[n.ID] = wrapText(text, mapLineUnits)
	}
	width := 2*mapPad + widest*mapBoxW + (widest-1)*mapGapX
	type pos struct{ x, y, h int }
	at := map[string]pos{}
	y := mapPad
	for _, r := range rows {
		most := 1
		for _, id := range r {
			most = max(most, len(lines[id]))
		}
		h := mapTextTop + most*mapLineH + 8
		rowW := len(r)*mapBoxW + (len(r)-1)*mapGapX
		x0 := (width - rowW) / 2
		for i, id := range r {
			at[id] = pos{x0 + i*(mapBoxW+mapGapX), y, h}
		}
		y += h + mapGapY
	}
	height := y - mapGapY + mapPad
	esc := template.HTMLEscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="tree-map" role="img" aria-labelledby="map-title" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<title id="map-title">%s: %d questions and causes, from the first question down</title>`+"\n", esc(t.UI("overview")), len(tr.Nodes))
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor" stroke="none"/></marker></defs>` + "\n")
	// Edges first, so the boxes sit on top of them.
	for _, r := range rows {
		for _, id := range r {
			n := tr.Node(id)
			for _, e := range []struct{ to, label string }{{n.Yes, t.UI("yes")}, {n.No, t.UI("no")}} {
				to, ok := at[e.to]
				if e.to == "" || !ok {
					continue
				}
				from := at[id]
				x1, y1 := from.x+mapBoxW/2, from.y+from.h
				x2, y2 := to.x+mapBoxW/2, to.y
				if to.y <= from.y { // a join back up or across: go round the side
					x1, y1 = from.x+mapBoxW, from.y+from.h/2
					x2, y2 = to.x+mapBoxW, to.y+to.h/2
					fmt.Fprintf(&b, `<path d="M%d,%d C%d,%d %d,%d %d,%d" marker-end="url(#arrow)"/>`+"\n", x1, y1, x1+mapGapX*2, y1, x2+mapGapX*2, y2, x2, y2)
				} else {
					fmt.Fprintf(&b, `<path d="M%d,%d C%d,%d %d,%d %d,%d" marker-end="url(#arrow)"/>`+"\n", x1, y1, x1, y1+mapGapY/2, x2, y2-mapGapY/2, x2, y2)
				}
				fmt.Fprintf(&b, `<text class="edge" x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", (x1+x2)/2+8, (y1+y2)/2+4, esc(e.label))
			}
		}
	}
	for _, r := range rows {
		for _, id := range r {
			n := tr.Node(id)
			p := at[id]
			class := "question"
			text := n.Question
			if n.Leaf() {
				class, text = "leaf", n.Cause
			}
			if id == tr.Start {
				class += " start"
			}
			fmt.Fprintf(&b, `<a href="#%s"><title>%s</title><rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="6"/>`, esc(id), esc(text), class, p.x, p.y, mapBoxW, p.h)
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-weight="600">%s</text>`, p.x+mapBoxW/2, p.y+18, esc(clip(id, 24)))
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">`, p.x+mapBoxW/2, p.y+mapTextTop)
			dy := 0
			for _, l := range lines[id] {
				fmt.Fprintf(&b, `<tspan x="%d" dy="%d">%s</tspan>`, p.x+mapBoxW/2, dy, esc(l))
				dy = mapLineH
			}
			b.WriteString("</text></a>\n")
		}
	}
	b.WriteString("</svg>")
	return template.HTML(b.String()) // every string in it went through esc
}

// clip shortens s to at most n runes, with an ellipsis.
func clip(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// wrapText breaks s into lines of at most n units at spaces (a CJK
// character is two units, and breaks anywhere), so a box shows it whole.
// A run of other characters (a word, an identifier) stays on one line
// unless it is longer than a line, and CJK punctuation stays with its
// neighbour: no line starts with "，" or ends with "（".
func wrapText(s string, n int) []string {
	var out []string
	var line []rune
	units := 0
	flush := func() {
		if l := strings.TrimSpace(string(line)); l != "" {
			out = append(out, l)
		}
		line, units = nil, 0
	}
	for _, word := range strings.Fields(s) {
		for i, seg := range wrapSegments(word) {
			w := 0
			for _, r := range seg {
				w += runeUnits(r)
			}
			sep := 0
			if i == 0 && units > 0 {
				sep = 1
			}
			if units > 0 && units+sep+w > n {
				flush()
				sep = 0
			}
			if sep > 0 {
				line, units = append(line, ' '), units+1
			}
			for _, r := range seg {
				if units+runeUnits(r) > n { // only a segment longer than a line
					flush()
				}
				line, units = append(line, r), units+runeUnits(r)
			}
		}
	}
	flush()
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

// runeUnits is the width of r in a tree map box: two for CJK.
func runeUnits(r rune) int {
	if r >= 0x2E80 {
		return 2
	}
	return 1
}

// wrapSegments cuts a word into the pieces a line may break between:
// each CJK character, and each run of other characters, with opening
// punctuation joined to what follows and closing punctuation to what
// precedes.
func wrapSegments(word string) [][]rune {
	const opening, closing = "（「『《〈“‘【", "，。、：；）」』》〉”’】！？％"
	var segs [][]rune
	var open []rune
	for _, r := range word {
		switch {
		case strings.ContainsRune(opening, r):
			open = append(open, r)
			continue
		case strings.ContainsRune(closing, r) && len(segs) > 0 && open == nil:
			segs[len(segs)-1] = append(segs[len(segs)-1], r)
			continue
		}
		last := len(segs) - 1
		if open == nil && last >= 0 && runeUnits(r) == 1 && runeUnits(segs[last][len(segs[last])-1]) == 1 && !strings.ContainsRune(closing, segs[last][len(segs[last])-1]) {
			segs[last] = append(segs[last], r)
			continue
		}
		segs = append(segs, append(open, r))
		open = nil
	}
	if open != nil {
		segs = append(segs, open)
	}
	return segs
}
