package verdict

import (
	"reflect"
	"strings"
	"testing"
)

// TestKernelQuoted holds KernelQuoted to the engine: on a stack it
// reports, every adapter's verdict on one kernel release is its verdict on
// any other kernel of the same kind (upstream, or a distro build no
// distro release claims) with the kernel's words swapped; and the inbox
// stack, which it does not report, gives different verdicts on some pair,
// so the check can fail.
func TestKernelQuoted(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(m)
	pairs := [][2][2]string{
		{{"v2.6.32.7919-rc1", "2.6.32.7919"}, {"v6.8.0.7919-rc1", "6.8.0.7919"}},
		{{"v4.9.0.7919-rc1", "4.9.0.7919"}, {"v5.14.0.7919-rc1", "5.14.0.7919"}},
		{{"3.10.0.7919-7919-generic", "3.10.0.7919"}, {"6.12.0.7919-7919-generic", "6.12.0.7919"}},
	}
	words := func(v Verdict, k [2]string) Verdict {
		swap := strings.NewReplacer(k[0], "{kernel}", k[1], "{base}")
		v.Plan.Kernel, v.Kernel, v.KernelBase = "", "", ""
		rs := make([]Reason, len(v.Reasons))
		for i, r := range v.Reasons {
			r.Text, r.Nearest = swap.Replace(r.Text), swap.Replace(r.Nearest)
			rs[i] = r
		}
		v.Reasons = rs
		near := make([]string, len(v.Nearest))
		for i, n := range v.Nearest {
			near[i] = swap.Replace(n)
		}
		v.Nearest = near
		return v
	}
	stacks := []string{"inbox"}
	for _, s := range m.Stacks {
		stacks = append(stacks, s.ID)
	}
	inboxDiffers := false
	for _, st := range stacks {
		quoted := KernelQuoted(m, st)
		for _, a := range m.Adapters {
			for _, p := range pairs {
				x := words(e.Judge(Plan{Adapter: a.ID, Kernel: p[0][0], Stack: st}), p[0])
				y := words(e.Judge(Plan{Adapter: a.ID, Kernel: p[1][0], Stack: st}), p[1])
				same := reflect.DeepEqual(x, y)
				if quoted && !same {
					t.Errorf("%s on %s: KernelQuoted, but %s and %s differ:\n%+v\n%+v", a.ID, st, p[0][0], p[1][0], x, y)
				}
				if st == "inbox" && !same {
					inboxDiffers = true
				}
			}
		}
	}
	if !inboxDiffers {
		t.Error("no adapter's inbox verdict differs between the kernels: the pairs cannot tell a kernel-quoting stack from one that reads the kernel")
	}
	if KernelQuoted(m, "inbox") {
		t.Error("KernelQuoted(inbox) = true")
	}
}
