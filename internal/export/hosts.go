package export

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
)

// Hosts emits hosts.csv and findings.json from the summaries the host
// pages left behind (site.HostSummaries, site.FindingRows): no record or
// report is kept for them. Run it in a stage after the host pages. With no
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
		return emit(render.Func("findings.json", func(w io.Writer) error {
			return writeJSON(w, map[string]any{"hosts": len(sums), "findings": s.FindingRows()})
		}))
	}
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
