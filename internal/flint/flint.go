package flint

import (
	"io"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Query is one device's query output.
type Query struct {
	Device         string // the -d argument of the command line before it, when the input shows one
	Line           int    // 1-based line of its first field
	ImageType      string // "FS2", "FS3", "FS4" …
	FWVersion      string // "FW Version": the image in flash, what boots next
	FWRunning      string // "FW Version(Running)": printed only when the running firmware differs
	ReleaseDate    string // "FW Release Date", as printed (d.m.yyyy)
	ProductVersion string
	PartNumber     string // "Part Number", printed by "query full" only
	Description    string // "Description" of "query full"; the UID table header is not one
	PSID           string
	OrigPSID       string // "Orig PSID", printed when the PSID was changed (OEM cards)
	DeviceID       string // "Device ID" (FS2 images: ConnectX-3 and older)
	BaseGUID       string
	BaseMAC        string
}

// Running is the firmware the device runs: "FW Version(Running)" when
// printed (the flash then holds another image), else "FW Version".
func (q Query) Running() string {
	if q.FWRunning != "" {
		return q.FWRunning
	}
	return q.FWVersion
}

// Stored is the image in flash when it differs from the running one.
func (q Query) Stored() string {
	if q.FWRunning != "" {
		return q.FWVersion
	}
	return ""
}

// Output is what a file or paste of one or more queries holds.
type Output struct {
	Queries  []Query
	Messages []string // "-E- …" and "-W- …" lines: the tool's own errors and warnings
}

// fields maps each key flint prints (mlxfwops' query printer) to where
// it goes; keys not listed ("Rom Info", "Image VSD", "Security
// Attributes", "Orig Base GUID" …) are read past.
var fields = map[string]func(*Query) *string{
	"Image type":          func(q *Query) *string { return &q.ImageType },
	"FW Version":          func(q *Query) *string { return &q.FWVersion },
	"FW Version(Running)": func(q *Query) *string { return &q.FWRunning },
	"FW Release Date":     func(q *Query) *string { return &q.ReleaseDate },
	"Product Version":     func(q *Query) *string { return &q.ProductVersion },
	"Part Number":         func(q *Query) *string { return &q.PartNumber },
	"Description":         func(q *Query) *string { return &q.Description },
	"PSID":                func(q *Query) *string { return &q.PSID },
	"Orig PSID":           func(q *Query) *string { return &q.OrigPSID },
	"Device ID":           func(q *Query) *string { return &q.DeviceID },
	"Base GUID":           func(q *Query) *string { return &q.BaseGUID },
	"Base MAC":            func(q *Query) *string { return &q.BaseMAC },
}

// known are the other keys of the query, which keep a block open.
var known = map[string]bool{
	"FW ISSU Version": true, "Min FIT Version": true, "MIC Version": true, "Config Sectors": true, "Config Pad": true,
	"PRS Name": true, "Orig PRS Name": true, "Rom Info": true, "HW Access Key": true, "GUIDs": true, "MACs": true,
	"VSD": true, "Image VSD": true, "Device VSD": true, "Orig Base GUID": true, "Orig Base MAC": true,
	"Security Attributes": true, "Default Update Method": true,
}

var cmdRE = regexp.MustCompile(`\b(?:mst)?flint(?:_ext)?\s+(?:.*\s)?-d\s+(\S+)`)

// unbold drops markdown's strong emphasis around a whole line
// ("**FW Version:            16.28.2006**"), which a query pasted into an
// issue's text, outside a code block, may carry: no line of a query
// starts and ends with "**" or "__".
func unbold(line string) string {
	for _, m := range []string{"**", "__"} {
		if len(line) > 2*len(m) && strings.HasPrefix(line, m) && strings.HasSuffix(line, m) {
			return strings.TrimSpace(line[len(m) : len(line)-len(m)])
		}
	}
	return line
}

// Parse reads the text output of one or more queries. "Image type"
// starts a device's block (as does a key seen twice); indentation is not
// trusted, lines that are no key of the query (prompts, Rom Info's
// continuation lines) are read past, "N/A" is empty, markdown bold around
// a line is dropped, and a truncated tail keeps what it has.
func Parse(r io.Reader) (Output, error) {
	var out Output
	var cur *Query
	device, n := "", 0
	seen := map[string]bool{}
	err := lines.Each(r, func(raw string) {
		n++
		line := unbold(strings.TrimSpace(raw))
		if strings.HasPrefix(line, "-E- ") || strings.HasPrefix(line, "-W- ") {
			out.Messages = append(out.Messages, line)
			return
		}
		key, value, ok := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		_, field := fields[key]
		if !ok || !field && !known[key] {
			if m := cmdRE.FindStringSubmatch(line); m != nil {
				device, cur = m[1], nil
			}
			return
		}
		if cur == nil || key == "Image type" || seen[key] {
			out.Queries = append(out.Queries, Query{Device: device, Line: n})
			cur, seen = &out.Queries[len(out.Queries)-1], map[string]bool{}
		}
		seen[key] = true
		if !field {
			return
		}
		value = strings.TrimSpace(value)
		switch key {
		case "Base GUID", "Base MAC":
			value, _, _ = strings.Cut(value, " ") // "b8599f0300b3d7dc        8": the count follows
		case "Description":
			if strings.HasPrefix(value, "UID ") || strings.HasPrefix(value, "Node ") {
				return // the header of the UID table, not a description
			}
		}
		if value == "N/A" {
			value = ""
		}
		*fields[key](cur) = value
	})
	return out, err
}
