package lspci

import (
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Device is one PCI function.
type Device struct {
	Slot            string   // domain:bus:device.function; "0000:" is added when lspci omits the domain
	Class           string   // e.g. "Ethernet controller"
	ClassID         string   // e.g. "0200" (-nn or -vmmn)
	Name            string   // the description after the class, without ids and revision
	Vendor          string   // 4 hex digits (-nn or -vmmn)
	Device          string   // 4 hex digits (-nn or -vmmn)
	SubsystemName   string   // "Subsystem:" text without ids
	SubsystemVendor string   // 4 hex digits when printed
	SubsystemDevice string   // 4 hex digits when printed
	Rev             string   // revision
	Driver          string   // "Kernel driver in use"
	Modules         []string // "Kernel modules"
	MSIX            *MSIX    // nil when lspci printed no MSI-X capability
	CapsDenied      bool     // "Capabilities: <access denied>": lspci ran without root
	Link            *Link    // LnkCap and LnkSta (-vv); nil when neither was printed
	VPDName         string   // Vital Product Data "Product Name" (-vv, root)
	PartNumber      string   // Vital Product Data "[PN] Part number"; the [SN] serial is never kept
}

// Link is the PCIe link of a function: what it trained to (LnkSta) and
// what it can do (LnkCap).
type Link struct {
	Speed        string // LnkSta speed as printed: "8GT/s", "2.5GT/s", "unknown"
	Width        int    // LnkSta lanes (x8 is 8); 0 when not printed
	CapableSpeed string // LnkCap speed
	CapableWidth int    // LnkCap lanes
	// SpeedDowngraded and WidthDowngraded are lspci's "(downgraded)"
	// marks, or, from pciutils versions that print no marks, LnkSta below
	// LnkCap.
	SpeedDowngraded bool
	WidthDowngraded bool
}

// Downgraded reports whether the link runs below its capable speed or
// width.
func (l Link) Downgraded() bool { return l.SpeedDowngraded || l.WidthDowngraded }

// SpeedGTps is a speed such as "8GT/s" in GT/s; ok is false for
// "unknown" or an unreadable value.
func SpeedGTps(s string) (float64, bool) {
	v, ok := strings.CutSuffix(s, "GT/s")
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f <= 0 || f > 1024 {
		return 0, false
	}
	return f, true
}

// MSIX is the "MSI-X: Enable+ Count=64 Masked-" capability line.
type MSIX struct {
	Enabled bool
	Count   int // table size
}

// IsNetwork reports whether the function is an Ethernet, InfiniBand or
// other network controller (PCI class 02xx), or an InfiniBand adapter of
// the serial bus class (0c06, pci.ids "InfiniBand"), as the first HCAs
// report themselves (InfiniHost III: "0031:01:00.0 InfiniBand: Mellanox
// Technologies MT25208 …").
func (d Device) IsNetwork() bool {
	if d.ClassID != "" {
		return strings.HasPrefix(d.ClassID, "02") || d.ClassID == "0c06"
	}
	switch d.Class {
	case "Ethernet controller", "Infiniband controller", "Network controller", "Fabric controller", "InfiniBand":
		return true
	}
	return false
}

var (
	headerRE = regexp.MustCompile(`^((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+([^:]+?)(?:\s+\[([0-9a-fA-F]{4})\])?:\s*(.*)$`)
	idsRE    = regexp.MustCompile(`\s*\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\]$`)
	anyIDsRE = regexp.MustCompile(`\[[0-9a-fA-F]{4}:[0-9a-fA-F]{4}\]`)
	revRE    = regexp.MustCompile(`\s*\(rev ([0-9a-fA-F]+)\)$`)
	progRE   = regexp.MustCompile(`\s*\(prog-if [^)]*\)$`)
	msixRE   = regexp.MustCompile(`MSI-X: Enable([+-])\s+Count=(\d+)`)
	hex4RE   = regexp.MustCompile(`^[0-9a-fA-F]{4}$`)
	vmmIDRE  = regexp.MustCompile(`^(.*?)\s*\[([0-9a-fA-F]{4})\]$`)
	// hexRowRE is a row of the config space dump -x, -xxx and -xxxx print
	// after a device's lines: its offset, then 16 bytes.
	hexRowRE = regexp.MustCompile(`^([0-9a-f]{2,3}): ((?:[0-9a-f]{2} ){15}[0-9a-f]{2})$`)
)

// Parse reads lspci output in either form. Lines it does not understand,
// such as capability details or mail-wrapped continuations, are skipped.
func Parse(r io.Reader) ([]Device, error) {
	var out []Device
	var cur *Device
	vmm := false
	headerType := "" // config space byte 0x0e of the device, from its -x dump
	// A mail or chat wraps long lines: the device line and its Subsystem
	// line may run on into the next line. wrap names the line before
	// ("header", "Subsystem") while one may, desc and sub their text so far.
	wrap, desc, sub := "", "", ""
	var all []string // kept for a tree, which has no device lines
	each := func(raw string) {
		line := strings.TrimRight(raw, " \t")
		trim := strings.TrimSpace(line)
		if w := wrap; w != "" {
			wrap = ""
			if cur != nil && continued(trim) && !headerRE.MatchString(line) {
				switch w {
				case "header":
					desc += " " + trim
					describe(cur, desc)
					if cur.Rev == "" {
						wrap = w
					}
				case "Subsystem":
					sub += " " + trim
					subsystem(cur, sub)
				}
				return
			}
		}
		if k, v, ok := strings.Cut(trim, ":"); ok && !vmm && k == "Slot" && trim == line {
			vmm = true
			_ = v
		}
		if vmm {
			cur = vmmLine(&out, cur, trim)
			return
		}
		if m := headerRE.FindStringSubmatch(line); m != nil {
			headerType = ""
			out = append(out, header(m))
			cur = &out[len(out)-1]
			if desc = strings.TrimSpace(m[4]); cur.Rev == "" {
				wrap = "header"
			}
			return
		}
		// A device's lines are indented, but a mail or chat that lost
		// leading whitespace prints them flush left; those are read as
		// its lines too, by their keys.
		if cur == nil {
			return
		}
		if m := hexRowRE.FindStringSubmatch(trim); m != nil {
			headerType = configRow(cur, m[1], strings.Fields(m[2]), headerType)
			return
		}
		if pn, ok := strings.CutPrefix(trim, "[PN] Part number:"); ok {
			cur.PartNumber = strings.TrimSpace(pn)
			return
		}
		key, val, ok := strings.Cut(trim, ":")
		if !ok {
			return
		}
		val = strings.TrimSpace(val)
		switch key {
		case "LnkCap":
			speed, width, _, _ := linkFields(val)
			l := ensureLink(cur)
			l.CapableSpeed, l.CapableWidth = speed, width
			l.compare()
		case "LnkSta":
			speed, width, sd, wd := linkFields(val)
			l := ensureLink(cur)
			l.Speed, l.Width = speed, width
			l.SpeedDowngraded, l.WidthDowngraded = sd, wd
			l.compare()
		case "Product Name":
			if cur.VPDName == "" {
				cur.VPDName = val
			}
		case "Subsystem":
			subsystem(cur, val)
			wrap, sub = "Subsystem", val
		case "Kernel driver in use":
			cur.Driver = val
		case "Kernel modules":
			cur.Modules = splitList(val)
		case "Capabilities":
			if val == "<access denied>" {
				cur.CapsDenied = true
			}
			if m := msixRE.FindStringSubmatch(val); m != nil {
				n, err := strconv.Atoi(m[2])
				if err == nil {
					cur.MSIX = &MSIX{Enabled: m[1] == "+", Count: n}
				}
			}
		}
	}
	err := lines.Each(r, func(raw string) {
		if len(out) == 0 {
			all = append(all, raw)
		}
		for _, l := range Unjoin(unquote(raw)) {
			each(l)
		}
	})
	if len(out) == 0 {
		// "lspci -tv" (sos: sos_commands/pci/lspci_-tv) draws the buses as a
		// tree and prints no device line.
		out = parseTree(all)
	}
	return out, err
}

// deviceStartRE is where a device line starts inside a line whose line
// breaks a chat client or a form removed ("3b:00.0 Ethernet controller
// [0200]: … [15b3:101d] 3b:00.1 Ethernet controller …"): a slot after a
// space, then the class's name (or -n's number), its id in brackets with
// -nn, and the colon lspci prints after it. keyStartRE is where one of
// the lines lspci prints under a device starts inside such a line: the
// labels pciutils' lspci.c (show_verbose, show_htype0, show_bases,
// show_rom, show_kernel), ls-caps.c and ls-vpd.c (its "[PN] Part number: ",
// "[SN] Serial number: " and other "[XX] Name: " fields) print at a line's
// start; a label the parser does not read still ends the value before it,
// so a joined VPD's serial number never runs into the part number.
var (
	deviceStartRE = regexp.MustCompile(`\s(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\s+[A-Za-z0-9][^:\[\]]*?(?:\s+\[[0-9a-fA-F]{4}\])?:\s`)
	keyStartRE    = regexp.MustCompile(`\s(?:(?:DeviceName|Subsystem|Physical Slot|Flags|Control|Status|Latency|Interrupt|BIST result|Bus|NUMA node|IOMMU group|Kernel driver in use|Kernel modules|LnkCap|LnkSta|Product Name|Region \d+):|(?:\[virtual\] )?(?:Memory|I/O ports|Expansion ROM) at |Capabilities: [\[<]|Read-only fields:|Read/write fields:|\[[0-9A-Z]{2}\] [A-Z][^:]*:)`)
)

// DeviceStart is where the first device line starts inside line (after
// a prompt and a command line, or another device's line the line breaks
// between them were lost from), or -1 when none does.
func DeviceStart(line string) int {
	if m := deviceStartRE.FindStringIndex(line); m != nil {
		return m[0] + 1
	}
	return -1
}

// Unjoin cuts a line holding several of lspci's lines, joined with spaces
// where they had line breaks, at each line's start: a line is joined when
// a device line starts inside it, or when it is a device line that goes on
// with a line lspci prints under a device. Any other line is returned
// whole, and so is a line of -vmm's records ("Slot:\t3b:00.0"), whose
// values a joined line would run into keys this does not know.
func Unjoin(line string) []string {
	if strings.HasPrefix(line, "Slot:") {
		return []string{line}
	}
	starts := deviceStartRE.FindAllStringIndex(line, -1)
	if len(starts) == 0 && !headerRE.MatchString(line) {
		return []string{line}
	}
	starts = append(starts, keyStartRE.FindAllStringIndex(line, -1)...)
	if len(starts) == 0 {
		return []string{line}
	}
	cuts := make([]int, 0, len(starts))
	for _, s := range starts {
		cuts = append(cuts, s[0]+1) // after the space before the line
	}
	slices.Sort(cuts)
	out := make([]string, 0, len(cuts)+1)
	prev := 0
	for _, c := range cuts {
		if p := strings.TrimSpace(line[prev:c]); p != "" {
			out = append(out, p)
		}
		prev = c
	}
	return append(out, line[prev:])
}

// unquote removes one mail quote mark ("> ") from the start of a line,
// so lspci output quoted in a reply reads as printed.
func unquote(line string) string {
	if rest, ok := strings.CutPrefix(line, ">"); ok {
		return strings.TrimPrefix(rest, " ")
	}
	return line
}

func ensureLink(d *Device) *Link {
	if d.Link == nil {
		d.Link = &Link{}
	}
	return d.Link
}

// compare sets the downgrade flags from the numbers when lspci printed no
// marks, once both LnkCap and LnkSta are known.
func (l *Link) compare() {
	if l.CapableWidth > 0 && l.Width > 0 && l.Width < l.CapableWidth {
		l.WidthDowngraded = true
	}
	cs, ok1 := SpeedGTps(l.CapableSpeed)
	ss, ok2 := SpeedGTps(l.Speed)
	if ok1 && ok2 && ss < cs {
		l.SpeedDowngraded = true
	}
}

// linkFields reads "Speed 8GT/s (downgraded), Width x4 (ok), …" or
// "Port #0, Speed 16GT/s, Width x16, ASPM …".
func linkFields(val string) (speed string, width int, speedDown, widthDown bool) {
	for _, part := range strings.Split(val, ",") {
		f := strings.Fields(part)
		if len(f) < 2 {
			continue
		}
		down := len(f) >= 3 && f[2] == "(downgraded)"
		switch f[0] {
		case "Speed":
			speed, speedDown = f[1], down
		case "Width":
			if n, err := strconv.Atoi(strings.TrimPrefix(f[1], "x")); err == nil && n >= 0 && n <= 64 {
				width = n
			}
			widthDown = down
		}
	}
	return
}

func header(m []string) Device {
	d := Device{Slot: normSlot(m[1]), Class: strings.TrimSpace(m[2]), ClassID: strings.ToLower(m[3])}
	if d.ClassID == "" && hex4RE.MatchString(d.Class) {
		// -n alone prints numbers for names: "41:00.0 0207: 15b3:1021".
		d.Class, d.ClassID = "", strings.ToLower(d.Class)
	}
	describe(&d, m[4])
	return d
}

// describe reads a device line's description: the name, its ids (-nn)
// and its revision.
func describe(d *Device, desc string) {
	desc = progRE.ReplaceAllString(strings.TrimSpace(desc), "")
	d.Rev = ""
	if rm := revRE.FindStringSubmatch(desc); rm != nil {
		d.Rev = strings.ToLower(rm[1])
		desc = desc[:len(desc)-len(rm[0])]
	}
	desc = progRE.ReplaceAllString(desc, "")
	d.Name, d.Vendor, d.Device = splitIDs(desc)
	if d.Vendor == "" {
		d.Vendor, d.Device = unnamedIDs(d.Name)
	}
}

// unnamedRE is a function pci.ids has no name for, as lspci prints it
// without -n (pciutils lib/names.c, format_name_pair): "<vendor> Device
// <device>" when it knows the vendor, "Device <vendor>:<device>" when not.
var unnamedRE = regexp.MustCompile(`^(?:(.+) )?Device ([0-9a-fA-F]{4})(?::([0-9a-fA-F]{4}))?$`)

// vendorIDs are the pci.ids names of the vendors of RDMA adapters, each
// as lspci has printed it (pciutils/pciids, pci.ids in its history from
// 2015 on: Broadcom's was "Broadcom Corporation", then "Broadcom Limited",
// then "Broadcom Inc. and subsidiaries"; Pensando's "Pensando Systems Inc",
// "Pensando Systems", then "AMD Pensando Systems"). With them an unnamed
// device's printed id is a PCI id.
var vendorIDs = map[string]string{
	"Mellanox Technologies": "15b3", "Broadcom Inc. and subsidiaries": "14e4", "Broadcom Limited": "14e4", "Broadcom Corporation": "14e4",
	"Intel Corporation": "8086", "QLogic Corp.": "1077", "Huawei Technologies Co., Ltd.": "19e5", "Chelsio Communications Inc": "1425",
	"Amazon.com, Inc.": "1d0f", "Microsoft Corporation": "1414", "Alibaba (China) Co., Ltd.": "1ded", "Cisco Systems Inc": "1137",
	"VMware": "15ad", "AMD Pensando Systems": "1dd8", "Pensando Systems": "1dd8", "Pensando Systems Inc": "1dd8",
}

// unnamedIDs reads the ids lspci printed for a function pci.ids does not
// name ("QLogic Corp. Device 8070", "Device 1dd8:1002"), or "", "".
func unnamedIDs(name string) (vendor, device string) {
	m := unnamedRE.FindStringSubmatch(name)
	switch {
	case m == nil:
		return "", ""
	case m[1] == "" && m[3] != "":
		return strings.ToLower(m[2]), strings.ToLower(m[3])
	case m[1] != "" && m[3] == "" && vendorIDs[m[1]] != "":
		return vendorIDs[m[1]], strings.ToLower(m[2])
	}
	return "", ""
}

// subsystem reads a Subsystem line's value, named as a device is.
func subsystem(d *Device, val string) {
	d.SubsystemName, d.SubsystemVendor, d.SubsystemDevice = splitIDs(val)
	if d.SubsystemVendor == "" {
		d.SubsystemVendor, d.SubsystemDevice = unnamedIDs(d.SubsystemName)
	}
}

// continued reports whether a line can be the wrapped tail of the line
// before (a device line with no revision yet, a Subsystem line): words
// with no "key:" of a line of its own ("NetXtreme-E Dual-Media 10G RDMA
// Ethernet Controller (rev 01)", "[15b3:1015]"). A colon is taken only in
// ids.
func continued(trim string) bool {
	if trim == "" {
		return false
	}
	if c := trim[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '[' || c == '(') {
		return false
	}
	return !strings.Contains(anyIDsRE.ReplaceAllString(trim, ""), ":")
}

// splitIDs splits "Name [15b3:1017]" into the name and the ids, and reads
// "15b3:1017" alone as the ids: lspci -n prints the numbers in place of
// the names (pciutils lib/names.c, PCI_LOOKUP_NUMERIC: "%04x:%04x"), on
// the device line and the Subsystem line.
func splitIDs(s string) (name, vendor, device string) {
	if m := idsRE.FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(s[:len(s)-len(m[0])]), strings.ToLower(m[1]), strings.ToLower(m[2])
	}
	s = strings.TrimSpace(s)
	if m := numericRE.FindStringSubmatch(s); m != nil {
		return "", strings.ToLower(m[1]), strings.ToLower(m[2])
	}
	return s, "", ""
}

// numericRE is a vendor and device pair as lspci -n prints it.
var numericRE = regexp.MustCompile(`^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$`)

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// normSlot adds the default domain that lspci leaves out without -D.
func normSlot(s string) string {
	s = strings.ToLower(s)
	if strings.Count(s, ":") == 1 {
		return "0000:" + s
	}
	return s
}

// vmmLine handles one line of the -vmm form: "Key:\tvalue" records
// separated by blank lines.
func vmmLine(out *[]Device, cur *Device, line string) *Device {
	if line == "" {
		return nil
	}
	key, val, ok := strings.Cut(line, ":")
	if !ok {
		return cur
	}
	val = strings.TrimSpace(val)
	if key == "Slot" {
		*out = append(*out, Device{Slot: normSlot(val)})
		return &(*out)[len(*out)-1]
	}
	if cur == nil {
		return nil
	}
	switch key {
	case "Class":
		setIDOrName(val, &cur.ClassID, &cur.Class)
	case "Vendor":
		setIDOrName(val, &cur.Vendor, nil)
	case "Device":
		setIDOrName(val, &cur.Device, &cur.Name)
	case "SVendor":
		setIDOrName(val, &cur.SubsystemVendor, nil)
	case "SDevice":
		setIDOrName(val, &cur.SubsystemDevice, &cur.SubsystemName)
	case "Rev":
		cur.Rev = strings.ToLower(val)
	case "Driver":
		cur.Driver = val
	case "Module":
		cur.Modules = append(cur.Modules, val)
	}
	return cur
}

// setIDOrName reads a -vmm value: the id alone (-vmmn), the name alone
// (-vmm), or the name then the id in brackets (-vmm -nn: "Mellanox
// Technologies [15b3]", "MT27800 Family [ConnectX-5 Virtual Function]
// [1018]"; only a last bracket of four hex digits is the id).
func setIDOrName(val string, id, name *string) {
	if hex4RE.MatchString(val) {
		*id = strings.ToLower(val)
		return
	}
	if m := vmmIDRE.FindStringSubmatch(val); m != nil {
		*id = strings.ToLower(m[2])
		val = m[1]
	}
	if name != nil {
		*name = val
	}
}

// configRow reads the ids a config space dump gives where lspci printed
// none (-x without -n, as sysinfo-snapshot's lspci -vvvxxxxx): the
// header's vendor and device ids (offsets 0x00 and 0x02, little-endian),
// class (0x0a, 0x0b) and, in a type 0 header (0x0e, bit 7 the
// multi-function flag), the subsystem's (0x2c, 0x2e); offsets as
// include/uapi/linux/pci_regs.h names them (PCI_VENDOR_ID, PCI_DEVICE_ID,
// PCI_CLASS_DEVICE, PCI_HEADER_TYPE, PCI_SUBSYSTEM_VENDOR_ID,
// PCI_SUBSYSTEM_ID). Ids lspci printed are kept. It returns the header
// type byte, read from row 00.
func configRow(d *Device, offset string, b []string, headerType string) string {
	le := func(lo, hi int) string { return b[hi] + b[lo] }
	switch offset {
	case "00":
		if d.Vendor == "" && d.Device == "" {
			d.Vendor, d.Device = le(0, 1), le(2, 3)
		}
		if d.ClassID == "" {
			d.ClassID = le(10, 11)
		}
		return b[14]
	case "20":
		if d.SubsystemVendor == "" && d.SubsystemDevice == "" && (headerType == "00" || headerType == "80") {
			d.SubsystemVendor, d.SubsystemDevice = le(12, 13), le(14, 15)
		}
	}
	return headerType
}
