package matrix

import (
	"fmt"
	"io"
	"strings"
)

// eachClaim calls fn for every claim in the matrix, entries and their
// nested claims (interrupts, constraints, known issues, support ends,
// stack releases, backports), in file order within each table: walk's
// entries. Lint and Stats both walk claims through here, so they count the
// same things.
func (m *Matrix) eachClaim(fn func(what string, c Claim)) {
	m.walk(func(e entry) { fn(e.What, *e.Claim) })
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
