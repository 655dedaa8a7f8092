package site

import (
	"html/template"
	"strconv"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/record"
)

// ReportHTML is the host page's report: its facts, adapters, findings,
// walks, devices and raw evidence, appended in Go as Grid.writeHTML
// appends an adapter's grid, each value escaped as html/template escapes
// it in its place (text, a quoted attribute, or a link), so that a host
// page costs no reflection per field; host.html places it between the
// page's head and foot. At fleet scale this was the host page's template
// work, the largest part of a host's CPU after decoding its record.
func (p *HostPage) ReportHTML() (template.HTML, error) {
	bp := reportBuffers.Get().(*[]byte)
	b, err := p.appendReport((*bp)[:0])
	s := template.HTML(b)
	if cap(b) <= 1<<20 {
		*bp = b[:0]
		reportBuffers.Put(bp)
	}
	return s, err
}

// reportBuffers hold the buffers ReportHTML appends a report into before
// it is copied out: a report is tens of kilobytes, made on every host page.
var reportBuffers = sync.Pool{New: func() any { return new([]byte) }}

func (p *HostPage) appendReport(b []byte) ([]byte, error) {
	h, r := p.Record, p.Report
	b = append(b, "<div class=\"report\">\n<h1>"...)
	b = appendEscaped(b, p.Title)
	b = append(b, "</h1>\n<dl class=\"hostfacts\">\n"...)
	if p.Unnamed {
		b = append(b, `<dt>Host name</dt><dd><span class="absent">not recorded</span>: this record is called by its file, `...)
		b = appendEscaped(b, p.Label)
		b = append(b, `</dd>`...)
	}
	b = append(b, "\n<dt>Operating system</dt><dd>"...)
	b = appendOrAbsent(b, r.OS, "", "", "not recorded")
	b = append(b, "</dd>\n<dt>Kernel</dt><dd>"...)
	b = appendOrAbsent(b, h.Host.KernelRelease, "<code>", "</code>", "not recorded")
	b = append(b, "</dd>\n<dt>Snapshot</dt><dd>"...)
	b = appendEscaped(b, h.Host.SourceKind)
	if t := h.Host.CollectedAt; t != nil {
		b = append(b, ", collected "...)
		b = appendEscaped(b, t.Format("2006-01-02"))
	}
	if c := h.Host.Collector; c != "" {
		b = append(b, " by kbcollect "...)
		b = appendEscaped(b, c)
	}
	b = append(b, "</dd>\n<dt>Record</dt><dd><a href=\""...)
	b = appendHref(b, p.RecordFile)
	b = append(b, `" download>`...)
	b = appendEscaped(b, p.RecordFile)
	b = append(b, `</a> · `...)
	if h.Host.Redacted {
		b = append(b, `redacted: identifiers replaced by tokens`...)
	} else {
		b = append(b, `<strong>not redacted</strong>: identifiers as collected`...)
	}
	b = append(b, "</dd>\n</dl>\n<p class=\"verdict "...)
	switch {
	case r.Errors != 0:
		b = append(b, "no"...)
	case r.Warnings != 0:
		b = append(b, "warn"...)
	default:
		b = append(b, "ok"...)
	}
	b = append(b, `"><strong>`...)
	b = appendEscaped(b, p.Counts)
	b = append(b, `.</strong>`...)
	if !h.Host.HasRDMA {
		b = append(b, ` No RDMA device was seen on this host.`...)
	}
	b = append(b, "</p>\n\n"...)

	var err error
	if len(p.Adapters) > 0 {
		if b, err = p.appendAdapters(b); err != nil {
			return b, err
		}
	}

	b = append(b, "\n\n<h2 id=\"findings\">Findings</h2>\n"...)
	if len(p.Groups) == 0 {
		b = append(b, `<p>No check found a problem.</p>`...)
	}
	b = append(b, '\n')
	for i := range p.Groups {
		g := &p.Groups[i]
		b = append(b, `<section class="sev-group sev-`...)
		b = appendEscaped(b, string(g.Severity))
		b = append(b, `"><h3><span class="badge sev-`...)
		b = appendEscaped(b, string(g.Severity))
		b = append(b, `">`...)
		b = appendEscaped(b, string(g.Severity))
		b = append(b, `</span> `...)
		b = appendEscaped(b, g.Heading)
		b = append(b, "</h3>\n"...)
		for k := range g.Findings {
			b = appendFinding(b, &g.Findings[k])
		}
		b = append(b, `</section>`...)
	}
	b = append(b, '\n')
	if len(r.Unknown) > 0 {
		b = append(b, `<details class="unknown"><summary>Not judged: the evidence was absent (`...)
		b = strconv.AppendInt(b, int64(len(r.Unknown)), 10)
		b = append(b, ` checks)</summary><ul>`...)
		for _, id := range r.Unknown {
			b = append(b, `<li>`...)
			b = appendEscaped(b, p.CheckTitles[id])
			b = append(b, ` <span class="meta"><code>`...)
			b = appendEscaped(b, id)
			b = append(b, `</code></span></li>`...)
		}
		b = append(b, `</ul></details>`...)
	}
	b = append(b, '\n')
	if len(p.Groups) > 0 {
		b = append(b, `<aside class="legend" aria-label="Confidence tiers"><h3>Confidence tiers</h3><dl>`...)
		for _, t := range p.Tiers {
			b = append(b, `<dt><span class="tier tier-`...)
			b = appendEscaped(b, t.ID)
			b = append(b, `">`...)
			b = appendEscaped(b, t.Label)
			b = append(b, `</span></dt><dd>`...)
			b = appendEscaped(b, t.Text)
			b = append(b, `</dd>`...)
		}
		b = append(b, `</dl></aside>`...)
	}
	b = append(b, "\n\n"...)

	if len(p.Walks) > 0 {
		b = append(b, "<h2 id=\"trees\">Troubleshooting trees answered from this record</h2>\n"...)
		reached, unreached := p.Reached(), p.Unreached()
		if len(reached) == 0 {
			b = append(b, `<p>The record answers none of the trees' questions.</p>`...)
		}
		b = append(b, '\n')
		for i := range reached {
			b = appendWalk(b, &reached[i])
		}
		b = append(b, '\n')
		if len(unreached) > 0 {
			b = append(b, "<details class=\"walk\"><summary>Not reached: the record does not answer the first question of "...)
			b = strconv.AppendInt(b, int64(len(unreached)), 10)
			b = append(b, " tree(s)</summary><ul>\n"...)
			for i := range unreached {
				w := &unreached[i]
				b = append(b, `<li><a href="`...)
				b = appendHref(b, w.Href)
				b = append(b, `">`...)
				b = appendEscaped(b, w.Title)
				b = append(b, `</a> — its first question, <a href="`...)
				b = appendHref(b, w.StopHref)
				b = append(b, `">`...)
				b = appendEscaped(b, w.Stop)
				b = append(b, "</a>, needs evidence the record lacks</li>\n"...)
			}
			b = append(b, `</ul></details>`...)
		}
	}
	b = append(b, "\n\n"...)

	if len(h.Devices) > 0 {
		b = appendDevices(b, h.Devices)
	}
	b = append(b, "\n\n<h2 id=\"snapshot\">Snapshot problems</h2>\n"...)
	if len(h.Problems) > 0 {
		b = append(b, `<ul class="problems">`...)
		for _, pr := range h.Problems {
			b = append(b, `<li><code>`...)
			b = appendEscaped(b, pr.Source)
			b = append(b, `</code>: `...)
			b = appendEscaped(b, pr.Msg)
			b = append(b, `</li>`...)
		}
		b = append(b, `</ul>`...)
	} else {
		b = append(b, `<p>None: every source the collector read was read cleanly or was absent.</p>`...)
	}
	b = append(b, "\n\n<h2 id=\"raw\">Raw evidence</h2>\n"...)
	b = appendRaw(b, h)
	b = append(b, "<p class=\"meta\">The whole record: <a href=\""...)
	b = appendHref(b, p.RecordFile)
	b = append(b, `" download>`...)
	b = appendEscaped(b, p.RecordFile)
	b = append(b, "</a>.</p>\n</div>\n"...)
	return b, nil
}

// appendOrAbsent appends s between open and end, or the absent mark
// saying what is missing when s is empty.
func appendOrAbsent(b []byte, s, open, end, missing string) []byte {
	if s == "" {
		b = append(b, `<span class="absent">`...)
		b = append(b, missing...)
		return append(b, `</span>`...)
	}
	b = append(b, open...)
	b = appendEscaped(b, s)
	return append(b, end...)
}

func (p *HostPage) appendAdapters(b []byte) ([]byte, error) {
	b = append(b, "<h2 id=\"adapters\">Adapters found</h2>\n"...)
	b = append(b, `<div class="scroll"><table class="adapters-found stacked"><thead><tr><th scope="col">PCI address</th><th scope="col">PCI ids</th><th scope="col">Model</th><th scope="col">Driver</th><th scope="col">Firmware</th><th scope="col">MSI-X</th><th scope="col">Netdevs</th></tr></thead><tbody>`...)
	b = append(b, '\n')
	from := p.Path()
	for _, ha := range p.Adapters {
		a := ha.Record
		b = append(b, `<tr><td data-label="PCI address"><code>`...)
		b = appendEscaped(b, a.PCIAddress)
		b = append(b, "</code></td>\n<td data-label=\"PCI ids\">"...)
		if a.Vendor != "" && a.Device != "" {
			b = append(b, `<code>`...)
			b = appendEscaped(b, a.Vendor)
			b = append(b, ':')
			b = appendEscaped(b, a.Device)
			b = append(b, `</code>`...)
			if a.SubsystemVendor != "" {
				b = append(b, `<br><span class="meta">subsystem</span> <code>`...)
				b = appendEscaped(b, a.SubsystemVendor)
				b = append(b, ':')
				b = appendEscaped(b, a.SubsystemDevice)
				b = append(b, `</code>`...)
			}
		} else {
			b = append(b, `<span class="absent">not recorded</span>`...)
		}
		b = append(b, "</td>\n<td data-label=\"Model\">"...)
		if m := ha.Matrix; m != nil {
			r := page.Ref{Kind: page.Adapter, ID: m.ID}
			if err := r.Valid(); err != nil {
				return b, err
			}
			b = append(b, `<a href="`...)
			b = appendHref(b, page.RelRef(from, r))
			b = append(b, `">`...)
			b = appendEscaped(b, m.Name)
			b = append(b, `</a>`...)
		} else {
			b = append(b, `<span class="badge warn">not in the matrix</span>`...)
		}
		if a.Name != "" {
			b = append(b, `<br><span class="meta">`...)
			b = appendEscaped(b, a.Name)
			b = append(b, `</span>`...)
		}
		if a.PartNumber != "" {
			b = append(b, `<br><span class="meta">part</span> <code>`...)
			b = appendEscaped(b, a.PartNumber)
			b = append(b, `</code>`...)
		}
		b = append(b, "</td>\n<td data-label=\"Driver\">"...)
		if d := a.Driver; d.Name != "" {
			b = append(b, `<code>`...)
			b = appendEscaped(b, d.Name)
			b = append(b, `</code> `...)
			b = appendEscaped(b, d.Version)
			if d.Origin != "" {
				b = append(b, ` <span class="badge">`...)
				b = appendEscaped(b, d.Origin)
				b = append(b, `</span>`...)
			}
		} else {
			b = append(b, `<span class="absent">not recorded</span>`...)
		}
		b = append(b, "</td>\n<td data-label=\"Firmware\">"...)
		if f := a.Firmware; f.Running != "" {
			b = append(b, `<code>`...)
			b = appendEscaped(b, f.Running)
			b = append(b, `</code>`...)
			if f.Stored != "" && f.Stored != f.Running {
				b = append(b, `<br><span class="meta">stored</span> <code>`...)
				b = appendEscaped(b, f.Stored)
				b = append(b, `</code>`...)
			}
		} else {
			b = append(b, `<span class="absent">not recorded</span>`...)
		}
		b = append(b, "</td>\n<td data-label=\"MSI-X\">"...)
		b = appendOrAbsent(b, ha.MSIX(), "", "", "not recorded")
		b = append(b, "</td>\n<td data-label=\"Netdevs\">"...)
		if len(a.Netdevs) > 0 {
			for _, n := range a.Netdevs {
				b = append(b, `<code>`...)
				b = appendEscaped(b, n)
				b = append(b, `</code> `...)
			}
		} else {
			b = append(b, `<span class="absent">none recorded</span>`...)
		}
		b = append(b, "</td></tr>\n"...)
	}
	return append(b, `</tbody></table></div>`...), nil
}

// appendFinding appends a finding as its own block (it names no host:
// see Page).
func appendFinding(b []byte, f *FindingView) []byte {
	b = append(b, `<div class="finding `...)
	b = appendEscaped(b, string(f.Severity))
	b = append(b, `" id="`...)
	b = appendEscaped(b, f.Check)
	b = append(b, '-')
	b = appendEscaped(b, f.Subject)
	b = append(b, "\">\n<p class=\"check-title\">"...)
	b = appendEscaped(b, f.Title)
	b = append(b, "</p>\n<p><strong>"...)
	b = appendEscaped(b, f.Message)
	b = append(b, `</strong> <span class="meta">on `...)
	b = appendEscaped(b, f.Subject)
	if len(f.Also) > 0 {
		b = append(b, `, also on `...)
		for i, s := range f.Also {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendEscaped(b, s)
		}
		b = append(b, ` (the same finding on each function of this card)`...)
	}
	b = append(b, "</span></p>\n"...)
	if f.Explanation != "" {
		b = append(b, `<p>`...)
		b = appendEscaped(b, f.Explanation)
		b = append(b, `</p>`...)
	}
	b = append(b, '\n')
	if f.Fix != "" {
		b = append(b, `<p><strong>Fix:</strong> `...)
		b = appendEscaped(b, f.Fix)
		b = append(b, `</p>`...)
	}
	b = append(b, '\n')
	if len(f.Matrix) > 0 {
		b = append(b, `<p class="meta">What the matrix says:</p><ul class="rules">`...)
		for _, m := range f.Matrix {
			b = append(b, `<li>`...)
			b = appendEscaped(b, m.Rule)
			if m.Confidence != "" {
				b = append(b, ` <span class="tier tier-`...)
				b = appendEscaped(b, m.Confidence)
				b = append(b, `">`...)
				b = appendEscaped(b, m.Confidence)
				b = append(b, `</span>`...)
			}
			for _, s := range m.Sources {
				if href := s.Href(); href != "" {
					b = append(b, ` <a class="cite" href="`...)
					b = appendHref(b, href)
					b = append(b, `">[`...)
					b = appendEscaped(b, s.ID)
					b = append(b, `]</a>`...)
				} else {
					b = append(b, ` <span class="cite"`...)
					if s.URL != "" {
						b = append(b, ` title="`...)
						b = appendEscaped(b, s.URL)
						b = append(b, '"')
					}
					b = append(b, `>[`...)
					b = appendEscaped(b, s.ID)
					b = append(b, `]</span>`...)
				}
			}
			b = append(b, `</li>`...)
		}
		b = append(b, `</ul>`...)
	}
	b = append(b, '\n')
	if len(f.Evidence) > 0 {
		b = append(b, `<details class="evidence"><summary>Evidence (`...)
		b = strconv.AppendInt(b, int64(len(f.Evidence)), 10)
		b = append(b, `)</summary><ul>`...)
		for _, e := range f.Evidence {
			b = append(b, `<li><code>`...)
			b = appendEscaped(b, e.Fact)
			b = append(b, `</code>`...)
			if e.Source != "" {
				b = append(b, ` <span class="meta">from `...)
				b = appendEscaped(b, e.Source)
				if e.Line != 0 {
					b = append(b, `, line `...)
					b = strconv.AppendInt(b, int64(e.Line), 10)
				}
				b = append(b, `</span>`...)
			}
			b = append(b, `</li>`...)
		}
		b = append(b, `</ul></details>`...)
	}
	b = append(b, '\n')
	if len(f.See) > 0 {
		b = append(b, `<p class="links">Read more:</p><ul class="see">`...)
		for _, s := range f.See {
			b = append(b, `<li><a href="`...)
			b = appendHref(b, s.Href)
			b = append(b, `">`...)
			b = appendEscaped(b, s.Title)
			b = append(b, `</a></li>`...)
		}
		b = append(b, `</ul>`...)
	}
	b = append(b, "\n<p class=\"meta check-id\">check <code>"...)
	b = appendEscaped(b, f.Check)
	return append(b, "</code></p>\n</div>"...)
}

// appendWalk appends a walk that answered a question of its tree.
func appendWalk(b []byte, w *WalkView) []byte {
	b = append(b, `<details class="walk"`...)
	if w.Complete {
		b = append(b, ` open`...)
	}
	b = append(b, `><summary><a href="`...)
	b = appendHref(b, w.Href)
	b = append(b, `">`...)
	b = appendEscaped(b, w.Title)
	b = append(b, `</a> — `...)
	if w.Complete {
		b = append(b, `<strong>likely cause found</strong>`...)
	} else {
		b = append(b, `stopped at <a href="`...)
		b = appendHref(b, w.StopHref)
		b = append(b, `">`...)
		b = appendEscaped(b, w.Stop)
		b = append(b, `</a>: the record cannot answer it`...)
	}
	b = append(b, "</summary>\n<ol class=\"path\">"...)
	for _, st := range w.Path {
		b = append(b, `<li>`...)
		if st.Question != "" {
			b = appendEscaped(b, st.Question)
		} else {
			b = appendEscaped(b, st.Node)
		}
		b = append(b, ` → <strong class="answer-`...)
		b = appendEscaped(b, string(st.Answer))
		b = append(b, `">`...)
		b = appendEscaped(b, string(st.Answer))
		b = append(b, `</strong>`...)
		if st.Check != "" {
			b = append(b, ` <span class="meta">(`...)
			b = appendEscaped(b, st.CheckTitle)
			b = append(b, `: `...)
			b = appendEscaped(b, string(st.Status))
			b = append(b, `)</span>`...)
		}
		if st.Why != "" {
			b = append(b, ` <span class="meta">`...)
			b = appendEscaped(b, st.Why)
			b = append(b, `</span>`...)
		}
		b = append(b, `</li>`...)
	}
	b = append(b, "</ol>\n"...)
	if w.Complete {
		b = append(b, `<p><strong>Cause:</strong> `...)
		b = appendEscaped(b, w.Cause)
		b = append(b, `</p><p><strong>Fix:</strong> `...)
		b = appendEscaped(b, w.Fix)
		b = append(b, `</p>`...)
	}
	return append(b, "\n</details>"...)
}

// appendDevices appends the table of RDMA devices, a row per port.
func appendDevices(b []byte, ds []record.RDMADevice) []byte {
	b = append(b, `<h2 id="rdma">RDMA devices</h2><div class="scroll"><table class="stacked"><thead><tr><th scope="col">Device</th><th scope="col">Provider</th><th scope="col">Port</th><th scope="col">State</th><th scope="col">Link layer</th><th scope="col">GIDs v1 / v2</th><th scope="col">RoCE mode</th></tr></thead><tbody>`...)
	b = append(b, '\n')
	for _, d := range ds {
		head := func(b []byte) []byte {
			b = append(b, `<tr><td data-label="Device">`...)
			b = appendEscaped(b, d.Name)
			b = append(b, `</td><td data-label="Provider">`...)
			b = appendEscaped(b, d.Provider)
			return append(b, `</td><td data-label="Port"`...)
		}
		if len(d.Ports) == 0 {
			b = head(b)
			b = append(b, " colspan=\"5\"><span class=\"meta\">no port recorded</span></td></tr>\n"...)
			continue
		}
		for _, pt := range d.Ports {
			b = head(b)
			b = append(b, '>')
			b = strconv.AppendInt(b, int64(pt.Number), 10)
			b = append(b, `</td><td data-label="State">`...)
			b = appendEscaped(b, pt.State)
			if pt.PhysState != "" {
				b = append(b, ` / `...)
				b = appendEscaped(b, pt.PhysState)
			}
			b = append(b, `</td><td data-label="Link layer">`...)
			b = appendEscaped(b, pt.LinkLayer)
			b = append(b, `</td><td data-label="GIDs v1 / v2">`...)
			b = strconv.AppendInt(b, int64(pt.GIDCounts.RoCEv1), 10)
			b = append(b, ` / `...)
			b = strconv.AppendInt(b, int64(pt.GIDCounts.RoCEv2), 10)
			b = append(b, `</td><td data-label="RoCE mode">`...)
			b = appendEscaped(b, pt.DefaultRoCEMode)
			b = append(b, "</td></tr>\n"...)
		}
	}
	return append(b, `</tbody></table></div>`...)
}

// appendRaw appends the record's raw evidence: the sources consulted, the
// kernel log events, the tools' messages, the modules and the netdevs,
// each list folded.
func appendRaw(b []byte, h *record.Host) []byte {
	if len(h.Sources) > 0 {
		b = appendSummary(b, "Sources consulted", len(h.Sources))
		b = append(b, `<div class="scroll"><table class="stacked"><thead><tr><th scope="col">Source</th><th scope="col">Status</th><th scope="col">Reason</th></tr></thead><tbody>`...)
		b = append(b, '\n')
		for _, s := range h.Sources {
			b = append(b, `<tr><td data-label="Source"><code>`...)
			b = appendEscaped(b, s.ID)
			b = append(b, `</code></td><td data-label="Status">`...)
			b = appendEscaped(b, s.Status)
			b = append(b, `</td><td data-label="Reason">`...)
			b = appendEscaped(b, s.Reason)
			if s.Filter != "" {
				if s.Reason != "" {
					b = append(b, "; "...)
				}
				b = append(b, `pasted through <code>`...)
				b = appendEscaped(b, s.Filter)
				b = append(b, `</code>: only the lines it let through`...)
			}
			b = append(b, `</td></tr>`...)
		}
		b = append(b, `</tbody></table></div></details>`...)
	}
	b = append(b, '\n')
	if len(h.KernelLog) > 0 {
		b = appendSummary(b, "Kernel log events", len(h.KernelLog))
		b = append(b, `<ul class="raw">`...)
		for _, e := range h.KernelLog {
			b = append(b, `<li><span class="badge">`...)
			b = appendEscaped(b, e.Kind)
			b = append(b, `</span> <code>`...)
			b = appendEscaped(b, e.Text)
			b = append(b, `</code>`...)
			b = appendWhere(b, e.Source, e.Line)
		}
		b = append(b, `</ul></details>`...)
	}
	b = append(b, '\n')
	if len(h.ToolMessages) > 0 {
		b = appendSummary(b, "Tool messages", len(h.ToolMessages))
		b = append(b, `<ul class="raw">`...)
		for _, m := range h.ToolMessages {
			b = append(b, `<li><code>`...)
			b = appendEscaped(b, m.Tool)
			b = append(b, `</code> `...)
			b = appendEscaped(b, m.Kind)
			b = append(b, `: <code>`...)
			b = appendEscaped(b, m.Text)
			b = append(b, `</code>`...)
			if m.Count != 0 {
				b = append(b, ` ×`...)
				b = strconv.AppendInt(b, int64(m.Count), 10)
			}
			b = appendWhere(b, m.Source, m.Line)
		}
		b = append(b, `</ul></details>`...)
	}
	b = append(b, '\n')
	if len(h.Modules) > 0 {
		b = appendSummary(b, "Kernel modules", len(h.Modules))
		b = append(b, `<ul class="raw cols">`...)
		for _, m := range h.Modules {
			b = append(b, `<li><code>`...)
			b = appendEscaped(b, m.Name)
			b = append(b, `</code>`...)
			if m.Version != "" {
				b = append(b, ' ')
				b = appendEscaped(b, m.Version)
			}
			if m.Origin != "" {
				b = append(b, ` <span class="meta">`...)
				b = appendEscaped(b, m.Origin)
				b = append(b, `</span>`...)
			}
			b = append(b, `</li>`...)
		}
		b = append(b, `</ul></details>`...)
	}
	b = append(b, '\n')
	if len(h.Netdevs) > 0 {
		b = appendSummary(b, "Network devices", len(h.Netdevs))
		b = append(b, `<ul class="raw">`...)
		for _, n := range h.Netdevs {
			b = append(b, `<li><code>`...)
			b = appendEscaped(b, n.Name)
			b = append(b, `</code>`...)
			if n.Driver != "" {
				b = append(b, ' ')
				b = appendEscaped(b, n.Driver)
			}
			if n.PCIAddress != "" {
				b = append(b, ` <code>`...)
				b = appendEscaped(b, n.PCIAddress)
				b = append(b, `</code>`...)
			}
			if n.Virtual {
				b = append(b, ` virtual`...)
			}
			if n.Link != "" {
				b = append(b, ` link `...)
				b = appendEscaped(b, n.Link)
			}
			if n.Speed != "" {
				b = append(b, ' ')
				b = appendEscaped(b, n.Speed)
			}
			if n.State != "" {
				b = append(b, ` state `...)
				b = appendEscaped(b, n.State)
			}
			if n.MTU != nil {
				b = append(b, ` mtu `...)
				b = strconv.AppendInt(b, int64(*n.MTU), 10)
			}
			if n.Master != "" {
				b = append(b, ` master <code>`...)
				b = appendEscaped(b, n.Master)
				b = append(b, `</code>`...)
			}
			b = append(b, `</li>`...)
		}
		b = append(b, `</ul></details>`...)
	}
	return append(b, '\n')
}

// appendHref appends s as html/template writes a value that is a whole
// link in a quoted href: a scheme other than http, https or mailto
// becomes "#ZgotmplZ"; each byte a URL may not hold unescaped is
// %-escaped, an escape already there kept; then the attribute's escaping.
func appendHref(b []byte, s string) []byte {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		return append(b, "#ZgotmplZ"...)
	}
	const hex = "0123456789abcdef"
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '&':
			b = append(b, "&amp;"...)
		case c == '+':
			b = append(b, "&#43;"...)
		case c == '!', c == '#', c == '$', c == '*', c == ',', c == '/', c == ':', c == ';', c == '=', c == '?', c == '@', c == '[', c == ']',
			c == '-', c == '.', c == '_', c == '~',
			'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			b = append(b, c)
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}

// appendSummary opens a folded list: <details><summary>title (n)</summary>.
func appendSummary(b []byte, title string, n int) []byte {
	b = append(b, `<details><summary>`...)
	b = append(b, title...)
	b = append(b, ` (`...)
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, `)</summary>`...)
}

// appendWhere ends a raw-evidence item with where it was read: its
// source and line.
func appendWhere(b []byte, source string, line int) []byte {
	b = append(b, ` <span class="meta">`...)
	b = appendEscaped(b, source)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(line), 10)
	return append(b, `</span></li>`...)
}
