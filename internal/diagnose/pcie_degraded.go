package diagnose

import (
	"fmt"
	"math"

	"github.com/rocekb/rocekb/internal/record"
)

// laneGbps is the usable bandwidth of one lane at a PCIe speed, as the
// kernel computes it (PCIE_SPEED2MBS_ENC in drivers/pci/pci.h): 8b/10b
// encoding up to 5 GT/s, 128b/130b from 8 GT/s.
func laneGbps(gtps float64) float64 {
	if gtps <= 5 {
		return gtps * 8 / 10
	}
	if gtps >= 64 {
		return gtps // PCIe 6 FLIT mode; the kernel counts the raw rate
	}
	return gtps * 128 / 130
}

func linkGbps(gtps *float64, width *int) (float64, bool) {
	if gtps == nil || width == nil || *gtps <= 0 || *width <= 0 {
		return 0, false
	}
	return laneGbps(*gtps) * float64(*width), true
}

func gbps(x float64) string { return fmt.Sprintf("%.1f Gb/s", math.Round(x*10)/10) }

// portRateGbps sums the rates of the adapter's RDMA ports, when the record
// has them.
func (v view) portRateGbps(a *record.Adapter) (float64, bool) {
	total, ok := 0.0, false
	for _, n := range v.rdmaDevicesOf(a) {
		d := v.device(n)
		if d == nil {
			continue
		}
		for _, p := range d.Ports {
			if p.RateGbps != nil && *p.RateGbps > 0 {
				total += *p.RateGbps
				ok = true
			}
		}
	}
	return total, ok
}

// checkPCIeDegraded flags adapters whose PCIe link trained below what the
// function can do (lspci LnkSta below LnkCap, or the kernel's "limited by"
// line), and says how much bandwidth that costs against the port rate.
//
// Severity: warning. The adapter works, but it cannot move more than the
// link gives: at a lower speed or width a 100 Gb/s port may be held to a
// fraction of its rate.
func checkPCIeDegraded(v view) Result {
	h := v.h
	var r Result
	judged := func(a *record.Adapter) bool { return a.PCIe != nil }
	for a := range v.adapters() {
		if ma := v.match(a); ma == nil && !v.rdmaLike(a) || ma != nil && len(ma.RoCE) == 0 && len(ma.Transports) == 0 {
			continue // not an RDMA part: its link is not this check's business
		}
		l := a.PCIe
		if l == nil {
			if v.match(a) != nil {
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no PCIe link state for " + a.PCIAddress + " (lspci -vv, or the kernel's bandwidth line)"})
			}
			continue
		}
		src := fromSource(a.From, "pcie")
		if src == "" {
			for _, k := range []string{"pcie.speed_gtps", "pcie.width", "pcie.available_gbps", "pcie.limited_by"} {
				if s := fromSource(a.From, k); s != "" {
					src = s
					break
				}
			}
		}
		now, nowOK := linkGbps(l.SpeedGTps, l.Width)
		capb, capOK := linkGbps(l.CapableSpeedGTps, l.CapableWidth)
		if l.AvailableGbps != nil {
			now, nowOK = *l.AvailableGbps, true
		}
		if l.CapableGbps != nil {
			capb, capOK = *l.CapableGbps, true
		}
		slower := l.SpeedGTps != nil && l.CapableSpeedGTps != nil && *l.SpeedGTps < *l.CapableSpeedGTps
		narrower := l.Width != nil && l.CapableWidth != nil && *l.Width < *l.CapableWidth
		down := slower || narrower || l.Downgraded != nil && *l.Downgraded || l.LimitedBy != "" || nowOK && capOK && now < capb-0.01
		if !down {
			switch {
			case l.Downgraded != nil || l.CapableSpeedGTps != nil && l.CapableWidth != nil:
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "the link runs at its capable speed and width"})
			case l.AvailableGbps != nil:
				// pcie_print_link_status prints "limited by" whenever the
				// available bandwidth is below the capable one.
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "the kernel's bandwidth line names no limiting link"})
			default:
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has the link state but not what the function is capable of"})
			}
			continue
		}
		fact := fmt.Sprintf("%s PCIe link %s x%s, capable of %s x%s", a.PCIAddress, speedText(l.Speed, l.SpeedGTps), intText(l.Width), speedText(l.CapableSpeed, l.CapableSpeedGTps), intText(l.CapableWidth))
		if l.LimitedBy != "" {
			fact += ", limited by " + l.LimitedBy
		}
		ev := []Evidence{{Fact: fact, Source: src}}
		for _, e := range h.KernelLog {
			if e.Kind == record.LogPCIeLimited && e.Device == a.PCIAddress {
				ev = append(ev, logEvidence(e)...)
			}
		}
		msg := a.PCIAddress + ": the PCIe link runs below its capable speed or width"
		loss := ""
		if nowOK && capOK && capb > 0 {
			loss = fmt.Sprintf("the link gives %s of the %s it can (%.0f%% lost)", gbps(now), gbps(capb), 100*(capb-now)/capb)
			msg = a.PCIAddress + ": " + loss
		}
		if rate, ok := v.portRateGbps(a); ok && nowOK {
			if now < rate {
				msg += fmt.Sprintf(", below the %s its ports run at", gbps(rate))
			} else {
				msg += fmt.Sprintf("; still above the %s its ports run at", gbps(rate))
			}
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Warning, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     msg,
			Explanation: "The PCIe link trained at a lower speed or fewer lanes than the adapter supports (or an upstream bridge limits it). RDMA traffic cannot exceed the link's bandwidth, so a high-rate port loses throughput, and small-message rates drop with it.",
			Fix:         "Move the card to a slot wired for its full width and generation (the server's slot map), check riser cables and the BIOS slot settings (link speed set to Auto or the highest generation), and reseat the card; then check LnkSta in lspci -vv.",
			Evidence:    ev,
		})
	}
	v.unjudged(&r, judged, "the PCIe link")
	return r
}

func speedText(s string, g *float64) string {
	if s != "" {
		return s
	}
	if g != nil {
		return fmt.Sprintf("%gGT/s", *g)
	}
	return "?"
}

func intText(p *int) string {
	if p == nil {
		return "?"
	}
	return fmt.Sprint(*p)
}
