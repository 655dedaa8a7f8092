package export

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/readiness"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
)

// Hosts emits hosts.csv, findings.json, drift.csv when the fleet drifts
// and, when kb.toml names target plans, readiness.csv, from what the host pages left behind
// (site.HostSummaries, site.FindingRows, site.ReadinessReports): no record
// or report is kept for them. Run it in a stage after the host pages. With no
// hosts it emits nothing, as there is no fleet page to link them.
func Hosts(s *site.Site) render.Producer {
	return func(emit func(render.Output) error) error {
		sums := s.HostSummaries()
		if len(sums) == 0 {
			return nil
		}
		if err := emit(render.Func("hosts.csv", func(w io.Writer) error { return writeHostsCSV(w, sums) })); err != nil {
			return err
		}
		if err := emit(render.Func("findings.json", func(w io.Writer) error {
			return writeJSON(w, map[string]any{"hosts": len(sums), "findings": s.FindingRows()})
		})); err != nil {
			return err
		}
		if drift := s.DriftRows(); len(drift) > 0 {
			if err := emit(render.Func("drift.csv", func(w io.Writer) error { return writeDriftCSV(w, drift) })); err != nil {
				return err
			}
		}
		if rs := s.ReadinessReports(); len(rs) > 0 {
			return emit(render.Func("readiness.csv", func(w io.Writer) error { return writeReadinessCSV(w, rs) }))
		}
		return nil
	}
}

var driftHeader = []string{"model", "adapter", "what", "value", "n", "host", "page"}

// writeDriftCSV writes the fleet's drift: a row per host of each value
// (n is the value's count of functions or ports, as on the fleet page).
func writeDriftCSV(w io.Writer, rows []site.DriftRow) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(driftHeader); err != nil {
		return err
	}
	for _, r := range rows {
		for _, h := range r.Hosts {
			pg := ""
			if h.Slug != "" {
				pg = page.Path(page.Host, h.Slug)
			}
			if err := cw.Write(cells(r.Model, r.Adapter, r.What, r.Value, strconv.Itoa(r.N), h.Label, pg)); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

var readinessHeader = []string{"target", "host", "page", "host_status", "pci", "adapter", "name", "firmware", "current_stack", "status", "actions", "reasons"}

// writeReadinessCSV writes the fleet against each target plan: a row per
// judged adapter function of each host (its host's status beside it), and
// one for a host with no adapter to judge, with the reason.
func writeReadinessCSV(w io.Writer, rs []readiness.Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(readinessHeader); err != nil {
		return err
	}
	for _, r := range rs {
		for _, h := range r.Hosts {
			host := []string{r.Target.Label(), h.Host, page.Path(page.Host, h.File), string(h.Status)}
			if len(h.Adapters) == 0 {
				if err := cw.Write(cells(append(host, "", "", "", "", "", string(h.Status), "", h.Reason)...)); err != nil {
					return err
				}
			}
			for _, a := range h.Adapters {
				for _, pci := range append([]string{a.PCI}, a.OtherPCI...) {
					err := cw.Write(cells(append(host, pci, a.Adapter, a.Name, a.Firmware, a.CurrentStack, string(a.Status),
						strings.Join(a.Actions, "; "), strings.Join(a.Reasons, "; "))...))
					if err != nil {
						return err
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

var hostsHeader = []string{"host", "name", "page", "record", "os", "kernel", "source_kind", "redacted", "adapters", "firmware", "errors", "warnings", "info", "worst", "unknown_checks"}

func writeHostsCSV(w io.Writer, sums []site.HostSummary) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(hostsHeader); err != nil {
		return err
	}
	for _, h := range sums {
		err := cw.Write(cells(h.ID, h.Name, page.Path(page.Host, h.Slug), "host/"+h.Slug+".toml", h.OS, h.Kernel, h.SourceKind,
			strconv.FormatBool(h.Redacted), strings.Join(h.Adapters, ";"), strings.Join(h.Firmware, ";"),
			strconv.Itoa(h.Errors), strconv.Itoa(h.Warnings), strconv.Itoa(h.Infos), string(h.Worst), strconv.Itoa(h.Unknown)))
		if err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
