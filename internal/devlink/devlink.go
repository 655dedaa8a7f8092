package devlink

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// DevInfo is one device of `devlink dev info`.
type DevInfo struct {
	Handle            string            // e.g. "pci/0000:08:00.0" or "auxiliary/mlx5_core.eth.0"
	Driver            string            // driver
	SerialNumber      string            // serial_number (early kernels: "serial number")
	BoardSerialNumber string            // board.serial_number (early: board_serial_number)
	Fixed             map[string]string // versions fixed: board.id, fw.psid, asic.id …
	Running           map[string]string // versions running: fw.version, fw, fw.mgmt …
	Stored            map[string]string // versions stored: what boots next
}

// InfoOutput is the parsed output of `devlink dev info`.
type InfoOutput struct {
	Devices  []DevInfo
	Messages []string // error lines such as "kernel answers: No data available"
}

// PCIAddress returns the PCI address of a "pci/<bdf>" handle, or "".
func (d DevInfo) PCIAddress() string {
	if a, ok := strings.CutPrefix(d.Handle, "pci/"); ok {
		return a
	}
	return ""
}

// FirmwareRunning is the running firmware version: fw.version, else fw.
func (d DevInfo) FirmwareRunning() string { return first(d.Running, "fw.version", "fw") }

// FirmwareStored is the stored firmware version: fw.version, else fw.
func (d DevInfo) FirmwareStored() string { return first(d.Stored, "fw.version", "fw") }

// PSID is fw.psid from fixed, or from running as bnxt_en reports it.
func (d DevInfo) PSID() string {
	if v := first(d.Fixed, "fw.psid"); v != "" {
		return v
	}
	return first(d.Running, "fw.psid")
}

// Component is one version line of `devlink dev info`.
type Component struct {
	Section string // "fixed", "running" or "stored"
	Key     string // e.g. fw.mgmt, fw.undi, fw.bundle_id, board.id
	Value   string // annotations stripped
}

// Components lists every fixed, running and stored version, in that
// order, keys sorted within a section.
func (d DevInfo) Components() []Component {
	var out []Component
	for _, s := range []struct {
		name string
		m    map[string]string
	}{{"fixed", d.Fixed}, {"running", d.Running}, {"stored", d.Stored}} {
		keys := make([]string, 0, len(s.m))
		for k := range s.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, Component{Section: s.name, Key: k, Value: s.m[k]})
		}
	}
	return out
}

// summaryKeys names, per driver, the version key that stands for "the
// firmware" of the device, in order of preference. Most drivers report
// fw.version (mlx5_core) or fw (bnxt_en). ice has no fw.version: it
// reports fw.mgmt (the EMP management firmware), fw.undi (the option
// ROM) and fw.bundle_id, which the kernel's ice devlink documentation
// (Documentation/networking/devlink/ice.rst) calls the unique identifier
// of the firmware image loaded onto the device, the NVM's EETRACK id;
// that identifies the whole NVM image, so it is the summary.
var summaryKeys = map[string][]string{
	"ice": {"fw.bundle_id", "fw.mgmt"},
}

var defaultSummary = []string{"fw.version", "fw"}

// Summary is the one firmware version that stands for the device in the
// given section ("running" or "stored"), with the key it was taken from;
// both empty when the section has none of the driver's summary keys.
func (d DevInfo) Summary(section string) (value, key string) {
	m := d.Running
	if section == "stored" {
		m = d.Stored
	}
	keys := summaryKeys[d.Driver]
	if keys == nil {
		keys = defaultSummary
	}
	for _, k := range keys {
		if v, ok := m[k]; ok && v != "" {
			return v, k
		}
	}
	return "", ""
}

func first(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != "" {
			return v
		}
	}
	return ""
}

var handleRE = regexp.MustCompile(`^([a-z][a-z0-9_]*/[^\s:]+(?::[^\s:]+)*(?:\.[0-9a-zA-Z_.]+)?):(?:\s+(.*))?$`)

// splitHandle recognises a leading device handle such as "pci/0000:08:00.0:".
func splitHandle(line string) (handle, rest string, ok bool) {
	m := handleRE.FindStringSubmatch(line)
	if m == nil {
		return "", "", false
	}
	return m[1], strings.TrimSpace(m[2]), true
}

// ParseInfo reads the text output of `devlink dev info`. Indentation is not
// trusted (documentation and mail quote it differently); a line holding a
// handle starts a device and "fixed:", "running:", "stored:" start version
// sections.
func ParseInfo(r io.Reader) (InfoOutput, error) {
	var out InfoOutput
	var cur *DevInfo
	var section map[string]string
	inVersions := false
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "$") || strings.HasPrefix(line, "#") {
			return
		}
		if strings.HasPrefix(line, "kernel answers:") || strings.HasPrefix(line, "Error:") {
			out.Messages = append(out.Messages, line)
			return
		}
		if h, rest, ok := splitHandle(line); ok && rest == "" {
			out.Devices = append(out.Devices, DevInfo{Handle: h})
			cur = &out.Devices[len(out.Devices)-1]
			section, inVersions = nil, false
			return
		}
		if cur == nil {
			return
		}
		switch line {
		case "versions:":
			inVersions = true
			return
		case "fixed:":
			section = ensure(&cur.Fixed)
			return
		case "running:":
			section = ensure(&cur.Running)
			return
		case "stored:":
			section = ensure(&cur.Stored)
			return
		}
		key, val, _ := strings.Cut(line, " ")
		val = stripAnnotation(strings.TrimSpace(val))
		if inVersions && section != nil {
			// A version's name is lower case, dotted ("fw.mgmt.api",
			// "board.id"); a line of other text between the versions (a
			// reply written into a quoted output, a mail's "Cc:") is none.
			if versionName(key) {
				section[key] = val
			}
			return
		}
		switch key {
		case "driver":
			cur.Driver = val
		case "serial_number":
			cur.SerialNumber = val
		case "serial":
			if v, ok := strings.CutPrefix(val, "number "); ok {
				cur.SerialNumber = strings.TrimSpace(v)
			}
		case "board.serial_number", "board_serial_number":
			cur.BoardSerialNumber = val
		}
	})
	return out, err
}

// versionName reports whether a word can name a devlink info version:
// letters, digits and "._-", starting with a lower-case letter or a digit
// ("fw.mgmt.api", "board.id"; Documentation/networking/devlink/
// devlink-info.rst). Prose ("Just") and mail headers ("Cc:") are not.
func versionName(w string) bool {
	for i, r := range w {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case i > 0 && (r >= 'A' && r <= 'Z' || r == '.' || r == '_' || r == '-'):
		default:
			return false
		}
	}
	return w != ""
}

// annotationMarks start a note that a person added after a value in a
// pasted capture: "fw.mgmt.api 1.7 <--- No patch number included"
// (netdev, ice fw.mgmt.api patch), "# …" comments and "←" arrows.
var annotationMarks = []string{" <-", "<---", " # ", " ←"}

// stripAnnotation cuts a trailing annotation off a value; devlink values
// themselves never hold these marks.
func stripAnnotation(v string) string {
	for _, m := range annotationMarks {
		if i := strings.Index(v, m); i >= 0 {
			v = v[:i]
		}
	}
	return strings.TrimSpace(v)
}

func ensure(m *map[string]string) map[string]string {
	if *m == nil {
		*m = map[string]string{}
	}
	return *m
}

// atJSON skips the lines before the document, those not starting with
// '{': the command line a paste or capture kept before it, or a warning
// printed first.
func atJSON(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	for {
		if b, err := br.Peek(1); err != nil || b[0] == '{' {
			return br
		}
		if _, err := br.ReadSlice('\n'); err != nil && err != bufio.ErrBufferFull {
			return br
		}
	}
}

// ParseInfoJSON reads `devlink -j dev info` (optionally -p):
// {"info":{"<handle>":{"driver":…,"versions":{"fixed":{…},…}}}}.
func ParseInfoJSON(r io.Reader) (InfoOutput, error) {
	var doc struct {
		Info map[string]map[string]json.RawMessage `json:"info"`
	}
	if err := json.NewDecoder(atJSON(r)).Decode(&doc); err != nil {
		return InfoOutput{}, fmt.Errorf("devlink json: %w", err)
	}
	var out InfoOutput
	for h, fields := range doc.Info {
		d := DevInfo{Handle: h}
		for k, raw := range fields {
			switch k {
			case "driver":
				d.Driver = jsonString(raw)
			case "serial_number":
				d.SerialNumber = jsonString(raw)
			case "board.serial_number":
				d.BoardSerialNumber = jsonString(raw)
			case "versions":
				var v map[string]map[string]json.RawMessage
				if json.Unmarshal(raw, &v) == nil {
					d.Fixed = jsonMap(v["fixed"])
					d.Running = jsonMap(v["running"])
					d.Stored = jsonMap(v["stored"])
				}
			}
		}
		out.Devices = append(out.Devices, d)
	}
	sort.Slice(out.Devices, func(i, j int) bool { return out.Devices[i].Handle < out.Devices[j].Handle })
	return out, nil
}

func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

func jsonMap(m map[string]json.RawMessage) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = jsonString(v)
	}
	return out
}

// Param is one devlink device parameter.
type Param struct {
	Handle string       // device handle
	Name   string       // e.g. enable_roce
	Type   string       // generic or driver-specific
	Values []ParamValue // one per configuration mode
}

// ParamValue is one "cmode <mode> value <v>" line.
type ParamValue struct {
	CMode string // runtime, driverinit or permanent
	Value string // as printed: true, false, 15, dmfs …
}

// Value returns the value for cmode, and whether it is present.
func (p Param) Value(cmode string) (string, bool) {
	for _, v := range p.Values {
		if v.CMode == cmode {
			return v.Value, true
		}
	}
	return "", false
}

var eventRE = regexp.MustCompile(`^\[[a-z-]+,[a-z]+\]\s+`)

// ParseParams reads `devlink dev param show` text output, with or without a
// handle filter, and the param events of `devlink monitor`.
func ParseParams(r io.Reader) ([]Param, error) {
	var out []Param
	handle := ""
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "$") || strings.HasPrefix(line, "#") {
			return
		}
		if loc := eventRE.FindStringIndex(line); loc != nil {
			if !strings.HasPrefix(line, "[param,") {
				handle = ""
				return
			}
			line = line[loc[1]:]
		}
		if h, rest, ok := splitHandle(line); ok {
			handle, line = h, rest
			if line == "" {
				return
			}
		}
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "name":
			p := Param{Handle: handle, Name: f[1]}
			for i := 2; i+1 < len(f); i += 2 {
				if f[i] == "type" {
					p.Type = f[i+1]
				}
			}
			out = append(out, p)
		case len(f) >= 2 && f[0] == "cmode" && len(out) > 0:
			v := ParamValue{CMode: f[1]}
			if len(f) >= 4 && f[2] == "value" {
				v.Value = strings.Join(f[3:], " ")
			}
			out[len(out)-1].Values = append(out[len(out)-1].Values, v)
		}
	})
	return out, err
}

// ParseParamsJSON reads `devlink -j dev param show`:
// {"param":{"<handle>":[{"name":…,"type":…,"values":[{"cmode":…,"value":…}]}]}}.
func ParseParamsJSON(r io.Reader) ([]Param, error) {
	var doc struct {
		Param map[string][]struct {
			Name   string `json:"name"`
			Type   string `json:"type"`
			Values []struct {
				CMode string          `json:"cmode"`
				Value json.RawMessage `json:"value"`
			} `json:"values"`
		} `json:"param"`
	}
	if err := json.NewDecoder(atJSON(r)).Decode(&doc); err != nil {
		return nil, fmt.Errorf("devlink json: %w", err)
	}
	var out []Param
	for h, ps := range doc.Param {
		for _, p := range ps {
			q := Param{Handle: h, Name: p.Name, Type: p.Type}
			for _, v := range p.Values {
				q.Values = append(q.Values, ParamValue{CMode: v.CMode, Value: jsonString(v.Value)})
			}
			out = append(out, q)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Handle != out[j].Handle {
			return out[i].Handle < out[j].Handle
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
