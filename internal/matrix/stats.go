package matrix

import (
	"fmt"
	"io"
	"strings"
)

// eachClaim calls fn for every claim in the matrix, entries and their
// nested claims (interrupts, constraints, known issues, support ends,
// stack releases, backports), in file order within each table. Lint and
// Stats both walk claims through here, so they count the same things.
func (m *Matrix) eachClaim(fn func(what string, c Claim)) {
	for _, v := range m.Vendors {
		fn("vendor "+v.ID, v.Claim)
	}
	for _, d := range m.Drivers {
		fn("driver "+d.ID, d.Claim)
	}
	for _, a := range m.Adapters {
		what := "adapter " + a.ID
		fn(what, a.Claim)
		if a.Interrupts != nil {
			fn(what+" interrupts", a.Interrupts.Claim)
		}
		for _, n := range a.Constraints {
			fn(what+" constraint "+n.ID, n.Claim)
		}
		for _, n := range a.KnownIssues {
			fn(what+" known issue "+n.ID, n.Claim)
		}
		for _, s := range a.SupportEnd {
			fn(what+" support end", s.Claim)
		}
	}
	for _, s := range m.Stacks {
		fn("stack "+s.ID, s.Claim)
		for _, r := range s.Releases {
			fn("stack "+s.ID+" release "+r.Version, r.Claim)
		}
	}
	for _, f := range m.Firmware {
		fn("firmware_min for "+f.Adapter+" "+f.Feature, f.Claim)
	}
	for _, d := range m.Distros {
		fn("distro "+d.ID, d.Claim)
		for _, b := range d.Backports {
			fn("distro "+d.ID+" backport "+b.Driver, b.Claim)
		}
	}
	for _, r := range m.RoCEDefaults {
		fn("roce_default", r.Claim)
	}
	if m.Protocol != nil {
		fn("protocol", m.Protocol.Claim)
	}
	for _, c := range m.CMModes {
		fn("rdma_cm_mode", c.Claim)
	}
	for _, k := range m.PCIKernels {
		fn("pci_kernel "+k.PCI, k.Claim)
	}
	for _, r := range m.DistroRows {
		fn("distro_support "+r.Family+" "+r.From, r.Claim)
	}
	for _, r := range m.StackRows {
		fn("stack_support "+r.Stack, r.Claim)
	}
	for _, p := range m.Parts {
		fn("part_number "+p.Number, p.Claim)
	}
}

// Stats counts what the matrix holds.
type Stats struct {
	Vendors, Adapters, Drivers, Stacks, Distros, Sources, FirmwareMins int
	Claims                                                             int
	ByConfidence                                                       map[string]int // claims per confidence tier; "" counts claims without one
}

// Stats counts entries and claims per confidence tier.
func (m *Matrix) Stats() Stats {
	s := Stats{
		Vendors: len(m.Vendors), Adapters: len(m.Adapters), Drivers: len(m.Drivers),
		Stacks: len(m.Stacks), Distros: len(m.Distros), Sources: len(m.Sources),
		FirmwareMins: len(m.Firmware), ByConfidence: map[string]int{},
	}
	m.eachClaim(func(_ string, c Claim) {
		s.Claims++
		s.ByConfidence[c.Confidence]++
	})
	return s
}

// Write prints the counts, one per line, in a fixed order: the same matrix
// always prints the same text.
func (s Stats) Write(w io.Writer) error {
	var b strings.Builder
	row := func(name string, n int) { fmt.Fprintf(&b, "%-22s %5d\n", name, n) }
	row("vendors", s.Vendors)
	row("adapters", s.Adapters)
	row("drivers", s.Drivers)
	row("stacks", s.Stacks)
	row("distros", s.Distros)
	row("firmware minimums", s.FirmwareMins)
	row("sources", s.Sources)
	row("claims", s.Claims)
	for _, t := range Tiers {
		row("  "+t, s.ByConfidence[t])
	}
	if n := s.Claims - sumTiers(s.ByConfidence); n > 0 {
		row("  other", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sumTiers(by map[string]int) int {
	n := 0
	for _, t := range Tiers {
		n += by[t]
	}
	return n
}
