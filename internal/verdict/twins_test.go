package verdict

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"

	"github.com/rocekb/rocekb/internal/dirtest"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// twinOf are the bundled adapters given twins: one of each RDMA driver
// family the matrix holds rows for, among them adapters a distro_support
// row names (ConnectX-3, BE3) and one whose PCI ids came in different
// kernels (E810-XXV).
var twinOf = []string{"connectx-3", "connectx-6-dx", "bcm57508", "e810-xxv", "oneconnect-be3", "fastlinq-ql45000"}

// twinsMatrix is the bundled matrix with twins of twinOf added, adapters
// that share their drivers as the 10k corpus's synthetic ones do: each
// entry copied under another id and name, (a) with a PCI id no
// pci_kernel row dates, (b) with the first's PCI ids, (c) with a new PCI
// id and a distro_support row of its own, for its RDMA driver on RHEL 9;
// and a twin of the software stack.
func twinsMatrix(t *testing.T) (*matrix.Matrix, []string) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, b := range dirtest.Read(t, filepath.Join(hosttest.Root, "matrix")) {
		fsys[name] = &fstest.MapFile{Data: b}
	}
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	var twins struct {
		Adapters   []matrix.Adapter   `toml:"adapter"`
		DistroRows []matrix.DistroRow `toml:"distro_support"`
		Stacks     []matrix.Stack     `toml:"stack"`
	}
	// A second software stack, of the same module.
	soft := *m.Stack("softroce")
	soft.ID, soft.Name = "softroce-twin", "SoftRoCE twin"
	twins.Stacks = append(twins.Stacks, soft)
	ids := slices.Clone(twinOf)
	for i, id := range twinOf {
		o := m.Adapter(id)
		if o == nil {
			t.Fatalf("no adapter %s", id)
		}
		for _, k := range []string{"a", "b", "c"} {
			a := *o
			a.ID, a.Name = o.ID+"-twin-"+k, o.Name+" twin "+k
			a.Aliases = nil
			if k != "b" {
				a.PCI = []matrix.PCIID{{ID: fmt.Sprintf("ffff:b%d%02x", i, k[0]), Name: a.Name}}
			}
			twins.Adapters = append(twins.Adapters, a)
			ids = append(ids, a.ID)
			if k == "c" {
				twins.DistroRows = append(twins.DistroRows, matrix.DistroRow{Family: "rhel", From: "9.0", Adapters: []string{a.ID}, Drivers: []string{o.RDMADriver}, Status: matrix.StatusSupported,
					Text: "RHEL 9 lists " + a.Name + " under " + o.RDMADriver + ".", Claim: matrix.Claim{Sources: o.Sources, Confidence: "vendor-documented"}})
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("schema = 1\n")
	if err := toml.NewEncoder(&b).Encode(twins); err != nil {
		t.Fatal(err)
	}
	fsys["twins.toml"] = &fstest.MapFile{Data: b.Bytes()}
	tm, probs := matrix.Load(fs.FS(fsys), "matrix")
	if probs.Errors() > 0 {
		t.Fatalf("twins matrix:\n%s", probs)
	}
	return tm, ids
}

// TestEngineIsJudgeOnTwins: over a matrix where adapters share drivers
// and PCI ids (twinsMatrix), the engine, whose memos those adapters
// share, gives Judge's verdicts on every distro and kernel, inbox, on the
// software stack and on every vendor stack, and the distro rows are
// chosen once for adapters whose inputs are alike.
func TestEngineIsJudgeOnTwins(t *testing.T) {
	t.Parallel()
	m, ids := twinsMatrix(t)
	e := NewEngine(m)
	n := 0
	judge := func(p Plan) {
		n++
		isJudge(t, m, e, p, "")
	}
	for i, id := range ids {
		stacks := append([]string{matrix.Inbox, "softroce", "softroce-twin"}, m.Adapter(id).Stacks...)
		for _, tg := range gridTargets(m) {
			for _, s := range stacks {
				tg.Adapter, tg.Stack = id, s
				judge(tg)
			}
		}
		// Two custom kernels of one upstream base, which no distro
		// claims: a software stack's steps quote the release, which the
		// kernel the plan runs (its base) does not give.
		for _, k := range []string{"6.8.0-1-custom", "6.8.0-2-custom"} {
			for _, s := range stacks {
				judge(Plan{Adapter: id, Kernel: k, Stack: s})
			}
		}
		// A distro's kernel named alone (its dist tag names the release),
		// and with a distro the matrix lacks: planKernel says how the
		// kernel names its release only for the first. Its memo is the
		// same on every stack. A distro the matrix lacks is judged for
		// the first two adapters (ConnectX-3 and ConnectX-6 Dx, of two
		// RDMA drivers), the second reading the memos the first made:
		// what it adds to the kernel named alone, the distro's resolution
		// and the kernel memo without "alone", reads no adapter (kernelKey
		// names none), and past planKernel judgeSteps runs the plan as it
		// runs the kernel-alone plan, which every adapter runs; but a UEK
		// kernel named alone is judged as each release of its line
		// (judgeUEK), so for it every adapter judges the missing distro
		// too. Judge's "did you mean" for the missing distro cost about
		// 1 CPU-second over all 24 adapters.
		for _, d := range m.Distros {
			if d.Kernel != "" {
				judge(Plan{Adapter: id, Kernel: d.Kernel})
				if _, uek := rule.UEKLine(m, d.Kernel); i < 2 || uek != nil {
					judge(Plan{Adapter: id, Distro: "no-such-distro", Kernel: d.Kernel})
				}
			}
		}
	}
	// A plan reads its adapter's view; an adapter whose id an earlier one
	// has reads the whole matrix, where adapters of other drivers, PCI
	// ids and stack rows meet: the memos hold there too.
	for i := range m.Adapters {
		a := &m.Adapters[i]
		if drv := m.Driver(a.RDMADriver); drv != nil {
			if want, got := deviceKernelOf(m, a, drv, ""), e.deviceKernel(m, a, drv, ""); !reflect.DeepEqual(want, got) {
				t.Fatalf("%s in the whole matrix: device kernel %+v, want %+v", a.ID, got, want)
			}
		}
		if want, got := unconfirmed(roceStep(m, a)), e.roceStep(m, a); !reflect.DeepEqual(want, got) { // kept as add takes it
			t.Fatalf("%s in the whole matrix: RoCE step %+v, want %+v", a.ID, got, want)
		}
		for j := range m.Stacks {
			ms := &m.Stacks[j]
			want, got := Verdict{Verdict: Supported}, Verdict{Verdict: Supported}
			wr, wd := stackHead(m, &want, a, ms, "")
			if gr, gd := e.stackHead(m, &got, a, ms, ""); !slices.Equal(gr, wr) || gd != wd || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %s in the whole matrix: stack head %v %t %+v, want %v %t %+v", a.ID, ms.ID, gr, gd, got, wr, wd, want)
			}
			if ms.Kind == matrix.KindSoftware {
				want, got := Verdict{Verdict: Supported}, Verdict{Verdict: Supported}
				if wd, gd := softwareHead(m, &want, a, ms), e.softwareHead(m, &got, a, ms); gd != wd || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s on %s in the whole matrix: software head %t %+v, want %t %+v", a.ID, ms.ID, gd, got, wd, want)
				}
			}
		}
		for j := range m.Distros {
			d := &m.Distros[j]
			wr, wa := DistroRow(m, a, d)
			if gr, ga := e.distroRow(m, a, d); gr != wr || ga != wa {
				t.Fatalf("%s on %s in the whole matrix: distro row %v (by adapter %t), want %v (%t)", a.ID, d.ID, gr, ga, wr, wa)
			}
		}
	}
	views := map[rowsKey]int{}
	e.rowKeys.Range(func(_, v any) bool { views[v.(rowsKey)]++; return true })
	shared := 0
	for _, n := range views {
		shared += n - 1
	}
	if shared == 0 {
		t.Errorf("no two of %d adapters share their distro row choices", memos(&e.rowKeys))
	}
	t.Logf("%d plans; %d adapters' distro rows chosen as %d, %d choices", n, memos(&e.rowKeys), len(views), memos(&e.rows))
}
