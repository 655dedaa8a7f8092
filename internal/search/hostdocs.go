package search

import (
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/site"
)

// maxHostBody bounds a host document's text: a host with a long kernel
// log must not weigh more in the index than the page explaining its error.
const maxHostBody = 8 << 10

// HostDoc is the document of a host report. Its identifiers are what
// only this host has: its id, kernel release, PCI addresses, part
// numbers, firmware and stack versions. What it shares with the pages
// that explain it (PCI ids, module names, the adapter's model, the checks
// that found something, the classified kernel log lines and tool errors)
// is body text, so a query for mlx5_core or a pasted error finds the
// driver or FAQ page first and the hosts that show it after.
func HostDoc(p *site.HostPage) Doc {
	h := p.Record
	d := Doc{URL: p.Path(), Title: p.Title, Kind: "host", Lang: langOr(p.Lang)}
	ids := []string{h.Host.ID, h.Host.KernelRelease}
	var body []string
	if os := h.Host.OS.PrettyName; os != "" {
		body = append(body, os+".")
	}
	vendors := map[string]bool{}
	for _, a := range p.Adapters {
		r := a.Record
		ids = append(ids, r.PCIAddress, r.PartNumber, r.Firmware.Running, r.Firmware.PSID)
		line := []string{r.Name, r.Vendor + ":" + r.Device, r.Driver.Name, r.Driver.Version}
		if a.Matrix != nil {
			line = append(line, a.Matrix.Name)
			vendors[a.Matrix.Vendor] = true
		}
		line = append(line, r.ProductName)
		body = append(body, strings.Join(uniqueNonEmpty(line), ", "))
	}
	var devs []string
	for _, dev := range h.Devices {
		devs = append(devs, dev.Name, dev.Provider)
	}
	body = append(body, strings.Join(uniqueNonEmpty(devs), ", "))
	if s := h.Stack; s != nil {
		ids = append(ids, s.Version)
		body = append(body, s.Name)
	}
	if p.Report != nil {
		for _, f := range p.Report.Findings {
			body = append(body, f.Message)
		}
	}
	for _, e := range h.KernelLog {
		body = append(body, e.Text)
	}
	for _, m := range h.ToolMessages {
		body = append(body, m.Text)
	}
	if len(vendors) == 1 {
		for v := range vendors {
			d.Vendor = v
		}
	}
	d.IDs = uniqueNonEmpty(ids)
	d.Body = joinNonEmpty(body)
	if len(d.Body) > maxHostBody {
		d.Body = d.Body[:wordEnd(d.Body, maxHostBody)]
	}
	return d
}

func uniqueNonEmpty(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" && s != ":" && s != "," && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
