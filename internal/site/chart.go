package site

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/rocekb/rocekb/internal/fleet"
)

// The chart is drawn here, at build time, as plain SVG: no charting
// library, no script, and the same bytes on every build.
const (
	chartWidth = 640
	chartPad   = 8
	barHeight  = 20
	lineHeight = 18
	chartHues  = 6 // fw0 … fw5 in report.css
)

// chartFills are the fills used when report.css is not loaded.
var chartFills = [chartHues]string{"#0b5cad", "#1a7f37", "#9a6700", "#8250df", "#cf222e", "#57606a"}

// firmwareChart draws, per adapter model, one horizontal bar of the hosts
// running each firmware version, stacked and labelled. Models whose
// functions carry no PCI ids are left out, as the fleet summary leaves them
// out of drift.
func firmwareChart(models []fleet.Model) template.HTML {
	type seg struct {
		value string
		hosts int
		na    bool // firmware not recorded: drawn grey, never a colour of a version
	}
	type row struct {
		name string
		segs []seg
		sum  int
	}
	var rows []row
	most := 0
	for _, m := range models {
		if strings.HasPrefix(m.Adapter, "unidentified:") {
			continue
		}
		r := row{name: m.Name}
		for _, c := range m.Firmware {
			s := seg{value: c.Value, hosts: len(c.Hosts)}
			if c.Value == "-" {
				s.value, s.na = "not recorded", true
			}
			r.segs = append(r.segs, s)
			r.sum += len(c.Hosts)
		}
		if r.sum == 0 {
			continue
		}
		most = max(most, r.sum)
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return ""
	}
	esc := template.HTMLEscapeString
	var body strings.Builder
	y := chartPad
	span := float64(chartWidth - 2*chartPad)
	for _, r := range rows {
		fmt.Fprintf(&body, `<text class="label" x="%d" y="%d">%s</text>`+"\n", chartPad, y+14, esc(r.name))
		y += lineHeight + 2
		x := float64(chartPad)
		class, fill := make([]string, len(r.segs)), make([]string, len(r.segs))
		hue := 0
		for i, s := range r.segs {
			if s.na {
				class[i], fill[i] = "fwna", "#d0d7de"
				continue
			}
			class[i], fill[i] = fmt.Sprintf("fw%d", hue%chartHues), chartFills[hue%chartHues]
			hue++
		}
		for i, s := range r.segs {
			w := span * float64(s.hosts) / float64(most)
			fmt.Fprintf(&body, `<rect class="%s" fill="%s" x="%.1f" y="%d" width="%.1f" height="%d"><title>%s: %s</title></rect>`+"\n",
				class[i], fill[i], x, y, w, barHeight, esc(s.value), hostsText(s.hosts))
			if w >= 28 {
				fmt.Fprintf(&body, `<text class="count %s" x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", class[i], x+w/2, y+14, s.hosts)
			}
			x += w
		}
		y += barHeight + 4
		for i, s := range r.segs {
			fmt.Fprintf(&body, `<rect class="%s" fill="%s" x="%d" y="%d" width="10" height="10"></rect><text class="key" x="%d" y="%d">%s — %s</text>`+"\n",
				class[i], fill[i], chartPad, y+3, chartPad+16, y+12, esc(s.value), hostsText(s.hosts))
			y += lineHeight - 2
		}
		y += 10
	}
	var out strings.Builder
	fmt.Fprintf(&out, `<svg class="chart" role="img" aria-labelledby="fw-chart-title" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`+"\n",
		chartWidth, y, chartWidth, y)
	fmt.Fprintf(&out, `<title id="fw-chart-title">Hosts per running firmware version, per adapter model (%d models)</title>`+"\n", len(rows))
	out.WriteString(body.String())
	out.WriteString("</svg>")
	return template.HTML(out.String()) // every string in it went through esc
}

func hostsText(n int) string {
	if n == 1 {
		return "1 host"
	}
	return fmt.Sprintf("%d hosts", n)
}
