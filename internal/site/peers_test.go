package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/dirtest"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/verdict"
)

// peersTOML adds, to the bundled matrix, adapters that are peers: the
// benchmark corpus's kind (made-up PCI ids, no rows), and peers whose first
// name is also the engine's own word ("RoCE"); adapters that differ only
// in their note, or whose PCI ids have kernel rows (each in its own
// place), are kept apart.
func peersTOML() string {
	var b strings.Builder
	b.WriteString("# Test adapters for TestPeersJudgedAsThemselves: made up, not a source.\nschema = 1\n")
	adapter := func(id, name, pci, note string) {
		fmt.Fprintf(&b, "\n[[adapter]]\nid = %q\nname = %q\nvendor = \"nvidia\"\npci = [{ id = %q, name = %q }]\nroce = [\"v1\", \"v2\"]\neth_driver = \"mlx5_core\"\nrdma_driver = \"mlx5_ib\"\nrdma_core_provider = \"mlx5\"\nnote = %q\nsources = [\"pciids\"]\nconfidence = \"unconfirmed\"\n", id, name, pci, name, note)
	}
	for i := range 4 {
		adapter(fmt.Sprintf("peer-plain-%d", i), fmt.Sprintf("Peer Plain %d", i), fmt.Sprintf("ffff:b0%02x", i), "made up")
	}
	adapter("peer-note", "Peer Note", "ffff:b0ff", "made up, with another note")
	for i := range 3 {
		id, pci := fmt.Sprintf("peer-rows-%d", i), fmt.Sprintf("ffff:b1%02x", i)
		adapter(id, fmt.Sprintf("Peer Rows %d", i), pci, "made up")
		fmt.Fprintf(&b, "\n[[pci_kernel]]\npci = %q\ndriver = \"mlx5_core\"\nfirst_kernel = \"5.1\"\nsources = [\"pciids\"]\nconfidence = \"unconfirmed\"\n", pci)
	}
	for i, name := range []string{"RoCE", "Peer Word 1", "Peer Word 2"} {
		adapter(fmt.Sprintf("peer-word-%d", i), name, fmt.Sprintf("ffff:b2%02x", i), "made up, named alike")
	}
	return b.String()
}

func TestPeersJudgedAsThemselves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dirtest.Copy(t, "../../matrix", dir)
	if err := os.WriteFile(filepath.Join(dir, "zz-peers.toml"), []byte(peersTOML()), 0o644); err != nil {
		t.Fatal(err)
	}
	m, probs := matrix.Load(os.DirFS(dir), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	t.Run("grids", func(t *testing.T) { peerGridIsGridOf(t, m) })
	peers := m.Peers()
	groups := map[string][]string{}
	for _, a := range m.Adapters {
		groups[peers[a.ID]] = append(groups[peers[a.ID]], a.ID)
	}
	for first, want := range map[string][]string{
		"peer-plain-0": {"peer-plain-0", "peer-plain-1", "peer-plain-2", "peer-plain-3"},
		"peer-note":    {"peer-note"},
		"peer-rows-0":  {"peer-rows-0"},
		"peer-rows-1":  {"peer-rows-1"},
		"peer-word-0":  {"peer-word-0", "peer-word-1", "peer-word-2"},
	} {
		if got := groups[first]; !reflect.DeepEqual(got, want) {
			t.Errorf("peers of %s: %v, want %v", first, got, want)
		}
	}
	// A real adapter's peer has the same rows under other PCI ids: none of
	// the bundled adapters is another's peer.
	if g := groups["connectx-5"]; len(g) != 1 {
		t.Errorf("connectx-5's peers: %v", g)
	}

	// judgeAll of the test adapters and of every group with peers, each
	// group whole, which is what it does with them among all adapters
	// (v.all below judges all of them).
	v := newVerdicts(m)
	v.engine = verdict.NewEngine(m)
	var as []*matrix.Adapter
	for _, a := range sortedAdapters(m) {
		if strings.HasPrefix(a.ID, "peer-") || len(groups[peers[a.ID]]) > 1 {
			as = append(as, a)
		}
	}
	got := v.judgeAll(as)
	checked := 0
	for i, a := range as {
		if len(groups[peers[a.ID]]) < 2 {
			continue
		}
		checked++
		if want := v.judge(a.ID); !got[i].same(want) {
			t.Errorf("%s: its tables differ from the engine's for it", a.ID)
		}
	}
	if checked != 7 {
		t.Errorf("checked %d adapters with peers, want 7", checked)
	}
	// A renamed peer's stack releases are its first's (releaseAdapters
	// judges only the first).
	if len(v.renamedFrom) != 2 { // peer-plain-1 is judged, to check the renaming
		t.Errorf("renamed peers: %v, want peer-plain-2 and 3", v.renamedFrom)
	}
	for id, first := range v.renamedFrom {
		for _, st := range m.Stacks {
			for _, r := range append([]matrix.StackRelease{{}}, st.Releases...) {
				p := verdict.Plan{Adapter: id, Stack: st.ID, StackVersion: r.Version}
				q := p
				q.Adapter = first
				if v.engine.Judge(p).Yes() != v.engine.Judge(q).Yes() {
					t.Errorf("%s on %s %s: %s answers otherwise", id, st.ID, r.Version, first)
				}
			}
		}
	}
	// The tables keep a renamed peer's own reasons in its first's words
	// and give them in its own: each cell's reasons are the engine's.
	v = newVerdicts(m)
	v.all()
	for id := range v.renamedFrom {
		kept, tb, want := v.tables[id], v.table(id), v.judge(id)
		if kept.rename == nil || tb.rename != nil {
			t.Errorf("%s: its table is kept renamed, or given in its first's words", id)
		}
		renamed := 0
		for i := range kept.Reasons {
			if kept.Reasons[i].Text != tb.Reasons[i].Text {
				renamed++
			}
		}
		if renamed == 0 {
			t.Errorf("%s: no reason of its own names it", id)
		}
		for ci, c := range tb.Cells {
			var got, w []string
			for _, n := range c.Reasons {
				got = append(got, v.raw(tb, n).Text)
			}
			for _, k := range want.cells[ci].Reasons {
				w = append(w, want.reasons[k].Text)
			}
			if !slices.Equal(got, w) {
				t.Fatalf("%s, cell %d: reasons %q, want the engine's %q", id, ci, got, w)
			}
		}
		// The exports read them in its words too (DistroVerdicts renames
		// each as it reads it from the kept table).
		var stacks, distros []string
		for _, st := range v.stacks {
			stacks = append(stacks, st.Key)
		}
		for _, d := range v.distros {
			distros = append(distros, d.Key)
		}
		(&Site{m: m, verdicts: v}).DistroVerdicts(id, stacks, distros, func(st, d string, _ int, dv *verdict.Verdict) {
			var got, w []string
			for _, r := range dv.Reasons {
				got = append(got, r.Text)
			}
			for _, n := range tb.Cells[v.targetN[d]*len(v.stacks)+v.stackN[st]].Reasons {
				w = append(w, v.raw(tb, n).Text)
			}
			if !slices.Equal(got, w) {
				t.Errorf("%s on %s with %s: the exports read reasons %q, want %q", id, d, st, got, w)
			}
		})
	}
	// A peer's verdicts file, its cells laid out once for every table
	// that shares them, is byte for byte the file laid out on its own.
	if len(v.layouts) == 0 {
		t.Error("no two tables share their cells: no layout is shared")
	}
	for id := range v.tables {
		tb := v.table(id)
		got, err := json.Marshal(tb.laidOut(v.layout(tb)))
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(tb.file(len(v.stacks)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the file of its shared layout\n%.300s…\nlaid out on its own\n%.300s…", id, got, want)
		}
	}
	if len(v.layouts) != 0 {
		t.Errorf("%d layouts kept after every file was written", len(v.layouts))
	}
	// The renaming holds for the plain peers and fails for the word peers
	// (their first's name is also the engine's word), whose tables above
	// are then each judged on their own.
	plain := v.judge("peer-plain-0")
	if r := plain.renamed(m.Rename("peer-plain-0", "peer-plain-2")); !r.same(v.judge("peer-plain-2")) {
		t.Errorf("renaming peer-plain-0's tables does not give peer-plain-2's:\n%s", cmp.Diff(r, v.judge("peer-plain-2"), cmp.AllowUnexported(judged{}, XCell{})))
	}
	word := v.judge("peer-word-0")
	if r := word.renamed(m.Rename("peer-word-0", "peer-word-1")); r.same(v.judge("peer-word-1")) {
		t.Error("renaming RoCE's tables gives Peer Word 1's: the test no longer reaches the fallback")
	}
}

// peerGridIsGridOf holds every adapter's grid of m (the bundled matrix's
// and the made-up peers' of peersTOML) to the grid made from its table
// alone: a peer group's member's is derived from its first's grid
// (verdicts.peerGrid). So are tables made up to defeat the derivation,
// each a renamed peer's with two of the values the grid compares made one,
// whose grid must then be made from the table.
func peerGridIsGridOf(t *testing.T, m *matrix.Matrix) {
	v := newVerdicts(m)
	v.all()
	derived := 0
	for _, a := range sortedAdapters(m) {
		stacks := adapterStacks(m, v.stacks, a)
		want := v.gridOf(v.table(a.ID), stacks)
		if g := v.peerGrid(m, a.ID, stacks); g != nil {
			derived++
		}
		if got := v.grid(m, a); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: its grid is not the one made from its table:\n%s", a.ID, cmp.Diff(want, got, cmp.AllowUnexported(Grid{}, GridReason{}, GridRef{}, GridKernel{}, Target{})))
		}
	}
	if derived != 3 { // peer-plain-0, its renamed peers peer-plain-2 and 3
		t.Errorf("%d grids derived from their group's, want 3", derived)
	}
	if len(v.peerGrids) != 0 {
		t.Errorf("%d groups' grids kept after each member's was made", len(v.peerGrids))
	}

	// Made-up members of peer-plain-0's group: peer-plain-2's table with
	// two of the values its first's grid tells apart made one.
	peer := v.table("peer-plain-2")
	stacks := adapterStacks(m, v.stacks, m.Adapter("peer-plain-2"))
	var own []int // the reasons naming it, in its cells
	for _, c := range peer.Cells {
		for _, r := range c.Reasons {
			if r >= len(v.shared) && !slices.Contains(own, r) {
				own = append(own, r)
			}
		}
	}
	if len(own) < 2 {
		t.Fatalf("peer-plain-2's cells hold %d reasons of its own, want 2 or more", len(own))
	}
	made := map[string]*AdapterVerdicts{}
	// Its cells copied, not its first's (as a peer's numbered otherwise
	// are): read cell by cell, its grid is derived.
	copied := *peer
	copied.Cells = slices.Clone(peer.Cells)
	for i := range copied.Cells {
		copied.Cells[i].Reasons = slices.Clone(copied.Cells[i].Reasons)
	}
	// One reason stands for another (their texts renamed alike).
	one := *peer
	one.Cells = slices.Clone(peer.Cells)
	for i := range one.Cells {
		c := &one.Cells[i]
		if slices.Contains(c.Reasons, own[0]) {
			c.Reasons = slices.Clone(c.Reasons)
			for k, r := range c.Reasons {
				if r == own[0] {
					c.Reasons[k] = own[1]
				}
			}
		}
	}
	made["reasons made one"] = &one
	// A reason's matrix entry is another's.
	refs := *peer
	refs.Reasons = slices.Clone(peer.Reasons)
	var entries []int
	for _, r := range own {
		x := &refs.Reasons[r-len(v.shared)]
		for _, n := range x.Refs {
			if !slices.Contains(entries, n) {
				entries = append(entries, n)
			}
		}
	}
	if len(entries) < 2 {
		t.Fatalf("peer-plain-2's own reasons rest on %d entries, want 2 or more", len(entries))
	}
	for i, x := range refs.Reasons {
		if k := slices.Index(x.Refs, entries[0]); k >= 0 {
			x.Refs = slices.Clone(x.Refs)
			x.Refs[k] = entries[1]
			refs.Reasons[i] = x
		}
	}
	made["entries made one"] = &refs
	made["cells copied"] = &copied
	for what, tb := range made {
		pg := v.groupOf("peer-plain-2")
		pg.once.Do(func() { v.layPeerGrid(pg, m, "peer-plain-0") })
		want := v.gridOf(tb, stacks)
		got := v.groupGrid(pg, tb, stacks)
		if derive := tb == &copied; (got != nil) != derive {
			t.Errorf("%s: derived from its group's grid %v, want %v", what, got != nil, derive)
		}
		if got == nil {
			got = v.gridOf(tb, stacks)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: its grid is not the one made from its table:\n%.2000s", what, cmp.Diff(want, got, cmp.AllowUnexported(Grid{}, GridReason{}, GridRef{}, GridKernel{}, Target{})))
		}
		v.leave("peer-plain-2")
	}
}
