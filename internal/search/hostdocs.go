package search

import (
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/site"
)

// maxHostBody bounds a host document's text: a host with a long kernel
// log must not weigh more in the index than the page explaining its error.
const maxHostBody = 8 << 10

// HostDoc is the document of a host report: the host's id, kernel and
// OS, its adapters (PCI ids, names, part numbers, drivers, firmware and
// what the matrix calls them), the checks that found something and the
// classified kernel log lines (error strings) the record kept.
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
		ids = append(ids, r.Vendor+":"+r.Device, r.PCIAddress, r.PartNumber, r.Driver.Name, r.Driver.Version, r.Firmware.Running, r.Firmware.PSID)
		line := r.Name
		if a.Matrix != nil {
			ids = append(ids, a.Matrix.ID)
			line = a.Matrix.Name + " (" + r.Name + ")"
			vendors[a.Matrix.Vendor] = true
		}
		if r.ProductName != "" {
			line += ", " + r.ProductName
		}
		body = append(body, line)
	}
	for _, dev := range h.Devices {
		ids = append(ids, dev.Name, dev.Provider)
	}
	if s := h.Stack; s != nil {
		ids = append(ids, s.Name, s.Version)
	}
	if p.Report != nil {
		for _, f := range p.Report.Findings {
			ids = append(ids, f.Check)
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
		if s = strings.TrimSpace(s); s != "" && s != ":" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
