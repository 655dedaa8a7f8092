package site

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
	"github.com/rocekb/rocekb/internal/version"
)

// kernelProbes are kernel releases to judge: every bound, each x.y from
// 2.6 to 7.1 (so every range between two bounds, and above the last, is
// probed), patch releases and release candidates of the bounds, distro
// kernels the matrix cannot place, each RHEL release's own kernel, and
// developer builds the kernel grammar does not read.
func kernelProbes(m *matrix.Matrix) []string {
	var ks []string
	add := func(k string) {
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	add("2.6")
	add("2.6.18")
	for x, last := range map[int]int{3: 19, 4: 20, 5: 19, 6: 20, 7: 1} {
		for y := 0; y <= last; y++ {
			add(fmt.Sprintf("%d.%d", x, y))
		}
	}
	for _, b := range kernelBounds(m) {
		add(b)
		add("v" + b)
		add(b + "-rc2")
		if strings.Count(b, ".") == 1 {
			add(b + ".7")
			add(b + ".0-13-amd64")
		} else {
			add(b + "-91-generic")
		}
	}
	for _, k := range []string{"6.9", "6.13", "6.13.2", "6.8.0-45-generic", "5.15.0-91-generic", "6.1.0-13-amd64",
		"5.14.21-150500.55.39-default", "5.1.0-rc7-next-20190430+",
		// Custom builds as uname -r printed them in public reports: a Raspberry Pi kernel
		// (geerlingguy/raspberry-pi-pcie-devices#143), a Synology DSM kernel (RROrg/rr#353),
		// a research kernel (BarrinXu/FaaSMem#1).
		"5.10.17-v8+", "4.4.302+", "6.1.55-fastswap", "4.19.0-25-686-pae", "6.1.0-18-686", "6.8-rc3", "6.12.0-55.9.1.el10_0.x86_64",
		"5.14.0-999.el9_9.x86_64", "4.18.0-80.el8.x86_64", "3.10.0-862.el7.x86_64", "6.8.0-1.el9_4.x86_64",
		// openEuler kernels as uname -r printed them in public posts.
		"5.10.0-182.0.0.95.oe2203sp3.x86_64", "5.10.0-60.18.0.50.oe2203.x86_64", "6.6.0-72.0.0.76.oe2403sp1.x86_64",
		"4.19.90-2112.8.0.0131.oe1.aarch64", "4.19.90-2003.4.0.0036.oe1.aarch64", "4.19.90-2012.4.0.0053.oe1.aarch64",
		// RHEL kernels whose tag has no minor release: the stream names it.
		"3.10.0-1160.102.1.el7.x86_64", "4.18.0-372.9.1.el8.x86_64", "4.18.0-3720.el8.x86_64",
		// UEK kernels named alone (rule.UEKLine): releases Oracle's kernel matrices list
		// (matrix/distros-more.toml), a later UEK R7 update, and a series no release ships.
		"5.15.0-206.153.7.el8uek.x86_64", "5.4.17-2136.307.3.el8uek.x86_64", "5.15.0-0.30.19.el9uek.x86_64",
		"5.15.0-301.163.5.2.el9uek.x86_64", "6.12.0-105.51.5.el9uek.x86_64", "6.12.0-107.59.3.3.el10uek.x86_64",
		"5.4.17-2011.6.2.el7uek.x86_64", "6.12.0-7919.el8uek.x86_64",
		// Debian kernels as the Debian archive names them (matrix/sources-debian-kernels.toml):
		// a release's own (https://packages.debian.org/bullseye/linux-image-amd64,
		// https://packages.debian.org/de/bookworm/linux-image-amd64), a point release's own
		// in either default flavour, other flavours, and backports of later series, which
		// name no release (https://packages.debian.org/source/bullseye/linux-6.1,
		// https://packages.debian.org/linux-image-6.12.30+bpo-arm64-16k,
		// https://packages.debian.org/stable/linux-headers-6.12.41+deb13-common-rt).
		"5.10.0-35-amd64", "6.1.0-37-amd64", "6.1.0-18-arm64", "5.10.0-13-amd64", "5.10.0-13-arm64",
		"4.19.0-5-amd64", "4.19.0-26-amd64", "4.9.0-13-amd64", "6.1.0-18-cloud-amd64", "6.1.0-18-rt-amd64",
		"6.12.41+deb13-amd64", "6.12.48+deb13-arm64", "6.12.41+deb13-rt-amd64", "6.12.38+deb13.1-amd64",
		"6.1.0-0.deb11.17-amd64", "6.1.0-0.deb11.44-amd64", "5.10.0-0.deb10.29-amd64", "4.9.0-0.bpo.4-amd64",
		"6.12.43+deb12-amd64", "6.12.30+bpo-arm64-16k", "6.12.30+bpo-amd64", "6.19.13+deb13-cloud-amd64",
		"7.0.12+deb13-amd64", "7.1.3+deb14-amd64"} {
		add(k)
	}
	for _, d := range m.Distros {
		if g := rhelID.FindStringSubmatch(d.ID); g != nil && d.KernelBase != "" {
			add(d.KernelBase + "-427.13.1.el" + g[1] + "_" + g[2] + ".x86_64")
		}
		if t := rule.KernelTag(&d); t != "" && d.KernelBase != "" {
			add(d.KernelBase + "-7.0.0.1." + t + ".x86_64")
		}
		if tag, stream := rule.KernelStream(&d); stream != "" {
			add(stream + ".7.1." + tag + ".x86_64")
		}
		// Each Debian release's own kernels in each name that names it.
		for _, n := range rule.DebianNames(&d) {
			add(strings.Replace(strings.Replace(n, "-*-", "-23-", 1), ".*+", ".23+", 1))
		}
	}
	return ks
}

var rhelID = regexp.MustCompile(`^rhel-([0-9]+)\.([0-9]+)$`)

// formKernelTarget is will.js's kernelTarget in Go terms: the target of
// a kernel release's cells, or "" when the form holds none.
func formKernelTarget(ix *Index, raw string) string {
	base, rel, ok := rule.KernelBase(raw)
	if !ok {
		return ""
	}
	if rel != "" {
		if k, err := version.ParseKernel(raw); err == nil {
			if slices.Contains(ix.Kernels.Lines[k.Tag], rule.KernelSeries(base)) {
				return "u:" + k.Tag + ":" + rule.KernelSeries(base)
			}
		}
		// A Debian kernel: its ABI name, else its series, names the release.
		for _, key := range rule.DebianKeys(raw) {
			if id, ok := ix.Kernels.Tags[key]; ok {
				return "t:" + id
			}
		}
		k, _ := version.ParseKernel(raw)
		id, ok := ix.Kernels.Tags[k.Tag]
		if !ok {
			var hits []string
			for _, s := range ix.Kernels.Streams[k.Tag] {
				if rule.InStream(raw, s[0]) {
					hits = append(hits, s[1])
				}
			}
			id, ok = "", len(hits) == 1
			if ok {
				id = hits[0]
			}
		}
		if ok {
			if ix.Kernels.Tagged[id] == base {
				return "t:" + id
			}
			return ""
		}
	}
	b := ""
	for _, x := range ix.Kernels.Bounds {
		if c, ok := rule.Compare(base, x); ok && c >= 0 {
			b = x
		}
	}
	if rel != "" {
		return "v:" + b
	}
	return "k:" + b
}

type judgedText struct {
	L string   `json:"l"`
	T []string `json:"t"`
	X []string `json:"x"`
}

func engineText(v verdict.Verdict) judgedText {
	j := judgedText{L: string(v.Verdict), X: v.Nearest}
	for _, r := range v.Reasons {
		j.T = append(j.T, string(r.Verdict)+" "+r.Text)
	}
	return j
}

func (j judgedText) equal(o judgedText) bool {
	return j.L == o.L && slices.Equal(j.T, o.T) && slices.Equal(j.X, o.X)
}

// TestFormKernelMatchesEngine checks that the form's kernel cells give the
// engine's verdict for any kernel release: for every adapter and stack,
// the engine's verdict at each probe (kernelProbes) equals, word for word,
// the exported cell of the range the probe falls in with its marks
// replaced. That holds only if the engine's verdict does not change
// between two bounds, so a kernel threshold the bounds miss fails it.
// Then static/will.js, run in node, looks up the same probes for a few
// adapters (every probe for the first, one in each cell for the others)
// and must give the same answers.
func TestFormKernelMatchesEngine(t *testing.T) {
	t.Parallel()
	s, m := bundledSite(t)
	index, ix := verdictIndex(t, s)
	probes := kernelProbes(m)
	e := verdict.NewEngine(m)
	unmark := func(s, raw, base string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, ix.Kernels.Kernel, raw), ix.Kernels.Base, base)
	}
	tables := map[string][]byte{}
	targets := map[string]int{}
	for i, k := range ix.Targets {
		targets[k] = i
	}
	seen := map[string]bool{}
	declined := 0
	// The engine's verdicts for the adapters will.js judges below, kept
	// from this loop rather than judged twice.
	nodeAdapters := []string{"connectx-3", "connectx-3-pro", "connectx-5", "connectx-8", "e810-c", "bcm5760x", "fastlinq-ql41000", "hns-rdma-vf", "oneconnect-be3", "vmware-pvrdma"}
	wants := map[[3]string]judgedText{}
	// Each probe's cell and upstream base, the same for every adapter.
	cellOf, baseOf := make([]string, len(probes)), make([]string, len(probes))
	for i, raw := range probes {
		cellOf[i] = formKernelTarget(&ix, raw)
		baseOf[i], _, _ = rule.KernelBase(raw)
	}
	var b bytes.Buffer
	for _, id := range s.VerdictAdapters() {
		b.Reset()
		if err := s.WriteAdapterVerdicts(&b, id); err != nil {
			t.Fatal(err)
		}
		tables[id] = append([]byte(nil), b.Bytes()...)
		var av AdapterVerdicts
		decodeJS(t, b.Bytes(), fmt.Sprintf("rocekbVerdicts.adapter(%q,", id), &av)
		for pi, raw := range probes {
			tk, base := cellOf[pi], baseOf[pi]
			for si, st := range ix.Stacks {
				want := engineText(e.Judge(verdict.Plan{Adapter: id, Kernel: raw, Stack: st.Key}))
				if slices.Contains(nodeAdapters, id) {
					wants[[3]string{id, raw, st.Key}] = want
				}
				if tk == "" {
					// Only a RHEL kernel on another base than its release's.
					if !strings.Contains(raw, ".el") {
						t.Errorf("%s: the form holds no cell for kernel %s", id, raw)
					}
					declined++
					continue
				}
				ti, ok := targets[tk]
				if !ok {
					t.Fatalf("kernel %s: target %q is not exported", raw, tk)
				}
				seen[tk] = true
				c := av.Cells[ti*len(ix.Stacks)+si]
				got := judgedText{L: string(ix.Levels[c.Level])}
				var near []string
				for _, n := range c.Reasons {
					r := exportedReason(&ix, &av, n)
					got.T = append(got.T, string(ix.Levels[r.Level])+" "+unmark(r.Text, raw, base))
					if x := unmark(r.Nearest, raw, base); x != "" && ix.Levels[r.Level] != verdict.Supported && !slices.Contains(near, x) {
						near = append(near, x)
					}
				}
				if c.Nearest != nil {
					near = nil
					for _, x := range c.Nearest {
						near = append(near, unmark(x, raw, base))
					}
				}
				got.X = near
				if !got.equal(want) {
					t.Errorf("%s on kernel %s with %s (cell %s):\nform   %s %q → %q\nengine %s %q → %q", id, raw, st.Key, tk, got.L, got.T, got.X, want.L, want.T, want.X)
				}
			}
		}
	}
	for _, k := range ix.Targets {
		if strings.Contains(k, ":") && !seen[k] && !strings.HasPrefix(k, "v:") {
			t.Errorf("no probe fell in kernel cell %s", k)
		}
	}
	if declined == 0 {
		t.Error("no probe was a RHEL kernel on another base than its release's, which the form declines")
	}
	// Debian kernels name their release by their ABI name or series, and a
	// backport, another flavour or another series names none ("v:").
	for raw, want := range map[string]string{
		"6.1.0-37-amd64": "t:debian-12", "6.1.0-18-arm64": "t:debian-12", "5.10.0-35-amd64": "t:debian-11",
		"5.10.0-13-amd64": "t:debian-11.3", "5.10.0-13-arm64": "t:debian-11.3", "4.19.0-5-amd64": "t:debian-10.0",
		"4.9.0-13-amd64": "t:debian-9.13", "6.12.41+deb13-amd64": "t:debian-13", "6.12.38+deb13.1-amd64": "t:debian-13",
		"4.19.0-26-amd64": "v:", "6.1.0-18-cloud-amd64": "v:", "6.1.0-0.deb11.17-amd64": "v:", "6.12.43+deb12-amd64": "v:",
		"6.12.30+bpo-arm64-16k": "v:", "6.19.13+deb13-cloud-amd64": "v:", "7.0.12+deb13-amd64": "v:",
	} {
		if got := formKernelTarget(&ix, raw); got != want && !(want == "v:" && strings.HasPrefix(got, "v:")) {
			t.Errorf("kernel %s: the form's cell is %q, want %q", raw, got, want)
		}
	}
	if t.Failed() {
		return
	}

	// The same probes through will.js.
	js := willJS(t)
	// will.js keeps its tables private: keep them for judge as the form does.
	js.WriteString("var rocekbVerdicts = window.rocekbVerdicts, tables = {}, reg = rocekbVerdicts.adapter;\n" +
		"rocekbVerdicts.adapter = function (id, d) { tables[id] = d; reg(id, d); };\n")
	js.Write(index)
	var inNode []string
	for _, id := range nodeAdapters {
		if tab, ok := tables[id]; ok {
			js.Write(tab)
			inNode = append(inNode, id)
		}
	}
	if len(inNode) < 4 {
		t.Fatalf("only %v of %v are adapters of the matrix", inNode, nodeAdapters)
	}
	var stacks []string
	for _, st := range ix.Stacks {
		stacks = append(stacks, st.Key)
	}
	invalid := []string{"zz", "v6.x", "latest", "-6.8"}
	all := append(slices.Clone(probes), invalid...)
	// The first adapter takes every probe on every stack, and each other
	// one probe of each kernel cell (its first) on every stack: that
	// covers every case the whole product did. A kernel's cell in will.js
	// (kernelTarget, and the refusals) reads only the kernel and the index,
	// never the adapter; the verdict of a cell reads the adapter's cell,
	// and the kernel only to put it and its base in place of the marks,
	// the same for every cell. All 489 probes for each adapter cost node
	// 2 CPU-seconds, mostly finding the same cells again.
	firstOfCell := map[string]bool{}
	var oneEach []int
	for pi := range probes {
		if c := cellOf[pi]; c != "" && !firstOfCell[c] {
			firstOfCell[c] = true
			oneEach = append(oneEach, pi)
		}
	}
	sets := make([][]int, len(inNode))
	for ai := range inNode {
		sets[ai] = oneEach
	}
	sets[0] = make([]int, len(all))
	for pi := range all {
		sets[0][pi] = pi
	}
	js.WriteString(printJudgedJS)
	fmt.Fprintf(js, `var out = [], ids = %s, stacks = %s, probes = %s, sets = %s;
ids.forEach(function (id, ai) { stacks.forEach(function (st) { sets[ai].forEach(function (pi) {
  var k = probes[pi], c = rocekbVerdicts.cell(id, "", st, k);
  if (!c) { out.push({l: "none"}); return; }
  if (c.err) { out.push({l: "err"}); return; }
  var v = rocekbVerdicts.judge(id, tables[id], c, "");
  out.push({l: v.l, t: v.r.map(function (r) { return r.l + " " + r.t; }), x: v.x});
}); }); });
printJudged(out);
`, mustJSON(inNode), mustJSON(stacks), mustJSON(all), mustJSON(sets))
	got := decodeJudged(t, runNode(t, js))
	i, compared := 0, 0
	for ai, id := range inNode {
		for _, st := range stacks {
			for _, pi := range sets[ai] {
				raw := all[pi]
				g := got[i]
				i++
				if slices.Contains(invalid, raw) {
					if g.L != "err" {
						t.Errorf("will.js judged %q, which kbgen check refuses as a kernel release: %+v", raw, g)
					}
					continue
				}
				if cellOf[pi] == "" { // pi < len(probes): the invalid ones, after probes in all, are passed above
					if g.L != "err" {
						t.Errorf("will.js judged kernel %s, which the form holds no cell for: %+v", raw, g)
					}
					continue
				}
				want, ok := wants[[3]string{id, raw, st}]
				if !ok {
					t.Fatalf("no engine verdict kept for %s on kernel %s with %s", id, raw, st)
				}
				if !g.equal(want) {
					t.Errorf("will.js: %s on kernel %s with %s:\nform   %s %q → %q\nengine %s %q → %q", id, raw, st, g.L, g.T, g.X, want.L, want.T, want.X)
				}
				compared++
			}
		}
	}
	if len(got) != i {
		t.Errorf("will.js gave %d verdicts, want %d", len(got), i)
	}
	t.Logf("%d probes × %d stacks × %d adapters against the engine (%d without a cell); %d through will.js (every probe for %s, one in each of %d cells for %d more)", len(probes), len(ix.Stacks), len(s.VerdictAdapters()), declined, compared, inNode[0], len(oneEach), len(inNode)-1)
}
