package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/rocekb/rocekb/internal/visible"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rocekb/rocekb/internal/diag"
)

// Field formats. A record is written by kbcollect, but one may be edited
// by hand or come from anywhere, and its fields end up in pages, links and
// exports: a field that does not have its format is refused, so that
// `pci_address = "javascript:alert(1)"` never reaches a page.
var (
	// pciAddressRe is domain:bus:device.function as sysfs names it. The
	// domain is 4 hex digits, or more on hosts with Intel VMD (10000:…).
	pciAddressRe = regexp.MustCompile(`^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[01][0-9a-fA-F]\.[0-7]$`)
	// pciIDRe is a vendor or device id: 4 hex digits.
	pciIDRe = regexp.MustCompile(`^[0-9a-fA-F]{4}$`)
	// moduleRe is a kernel module or driver name.
	moduleRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	// ifnameRe is a netdev or RDMA device name (Linux allows more, but
	// never '/', whitespace or quotes; 64 leaves room for rdma names).
	ifnameRe = regexp.MustCompile(`^[A-Za-z0-9_.:@-]{1,64}$`)
	// versionRe is a firmware, driver, module, stack or kernel version as
	// tools print them: "16.35.2000", "5.10.0-236.0.0.138.oe2203sp3.aa",
	// "mfw 8.25.7.0 storm 8.20.0.0", "4.30 0x8001af27 1.3429.0",
	// "5.1.0-rc7-next-20190430+", "16.35.2000 (MT_0000000012)".
	versionRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._+~:,()/-]{0,127}$`)
	// schemeRe spots a URL scheme ("javascript:", "http:") in a version.
	schemeRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:[^0-9]`)
	// osIDRe and osVersionRe are os-release ID and VERSION_ID. os-release(5)
	// asks for a lower-case ID, but hosts write what they write: openEuler's
	// is ID="openEuler". Readers compare it without case.
	osIDRe      = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	osVersionRe = regexp.MustCompile(`^[A-Za-z0-9._~-]{1,64}$`)
)

// maxText bounds a free-text field (a host name, a product name, a log
// line): a record is a summary, not a log.
const maxText = 4096

// Invalid is one field of a record that does not have its format.
type Invalid struct {
	Path  string // TOML key path, with array elements: "adapter.0.pci_address"
	Value string
	Want  string // the format, for the message
}

func (v Invalid) String() string {
	return v.Path + " = " + diag.Quote(v.Value) + ": want " + v.Want
}

// Validate checks the formats of h's fields: PCI addresses
// (dddd:bb:dd.f), PCI ids (4 hex digits), module, netdev and RDMA device
// names, versions, os-release ids, the enumerations, and that free text
// is valid UTF-8 without control characters. Empty optional fields are
// fine; absent is data.
func Validate(h *Host) []Invalid { return validate(h, true) }

// validate is Validate; every string of h is looked at for hidden
// characters only when everyStr is true (see plainSource).
func validate(h *Host, everyStr bool) []Invalid {
	var out []Invalid
	check := func(path, v string, ok bool, want string) {
		if !ok {
			out = append(out, Invalid{Path: path, Value: v, Want: want})
		}
	}
	opt := func(re *regexp.Regexp) func(string) bool {
		return func(v string) bool { return v == "" || re.MatchString(v) }
	}
	pciAddr, pciID, module, ifname, osID, osVer := opt(pciAddressRe), opt(pciIDRe), opt(moduleRe), opt(ifnameRe), opt(osIDRe), opt(osVersionRe)
	const (
		wantAddr    = "a PCI address domain:bus:device.function, e.g. 0000:3b:00.0"
		wantID      = "a PCI id of 4 hex digits, e.g. 15b3"
		wantModule  = "a module name (letters, digits, '_' and '-')"
		wantIfname  = "an interface or device name (letters, digits, '.', '_', ':', '@' and '-')"
		wantVersion = "a version (letters, digits, spaces and . _ + ~ : , ( ) / -, starting with a letter or digit, with a digit, at most 128 bytes)"
		wantText    = "text without control, bidi or zero-width characters, at most 4096 bytes"
	)
	text := func(path, v string) { check(path, v, isText(v), wantText) }
	ver := func(path, v string) { check(path, v, isVersion(v), wantVersion) }
	enum := func(path, v string, vals ...string) {
		ok := v == ""
		for _, x := range vals {
			ok = ok || v == x
		}
		check(path, v, ok, "one of "+strings.Join(vals, ", "))
	}

	text("host.id", h.Host.ID)
	ver("host.kernel_release", h.Host.KernelRelease)
	text("host.kernel_release_from", h.Host.KernelReleaseFrom)
	check("host.os.id", h.Host.OS.ID, osID(h.Host.OS.ID), "an os-release ID (letters, digits, '.', '_' and '-')")
	check("host.os.version_id", h.Host.OS.VersionID, osVer(h.Host.OS.VersionID), "an os-release VERSION_ID (letters, digits, '.', '_', '~' and '-')")
	text("host.os.pretty_name", h.Host.OS.PrettyName)
	enum("host.source_kind", h.Host.SourceKind, KindLive, KindSosreport, KindCapture, KindRoot, KindSupportconfig, KindSysinfoSnapshot)
	text("host.collector", h.Host.Collector)

	for i, a := range h.Adapters {
		p := "adapter." + strconv.Itoa(i) + "."
		check(p+"pci_address", a.PCIAddress, a.PCIAddress != "" && pciAddr(a.PCIAddress), wantAddr)
		check(p+"vendor", a.Vendor, pciID(a.Vendor), wantID)
		check(p+"device", a.Device, pciID(a.Device), wantID)
		check(p+"subsystem_vendor", a.SubsystemVendor, pciID(a.SubsystemVendor), wantID)
		check(p+"subsystem_device", a.SubsystemDevice, pciID(a.SubsystemDevice), wantID)
		for _, s := range []struct{ k, v string }{{"name", a.Name}, {"subsystem_name", a.SubsystemName}, {"product_name", a.ProductName}, {"part_number", a.PartNumber}, {"driver.origin_why", a.Driver.OriginWhy}} {
			text(p+s.k, s.v)
		}
		for j, n := range a.Netdevs {
			check(p+"netdevs."+strconv.Itoa(j), n, ifname(n), wantIfname)
		}
		for j, n := range a.RDMADevices {
			check(p+"rdma_devices."+strconv.Itoa(j), n, ifname(n), wantIfname)
		}
		for j, m := range a.KernelModules {
			check(p+"kernel_modules."+strconv.Itoa(j), m, module(m), wantModule)
		}
		check(p+"driver.name", a.Driver.Name, module(a.Driver.Name), wantModule)
		ver(p+"driver.version", a.Driver.Version)
		ver(p+"driver.srcversion", a.Driver.SrcVersion)
		enum(p+"driver.origin", a.Driver.Origin, OriginInbox, OriginOFED, OriginVendor, OriginUnknown)
		ver(p+"firmware.running", a.Firmware.Running)
		ver(p+"firmware.stored", a.Firmware.Stored)
		ver(p+"firmware.psid", a.Firmware.PSID)
		ver(p+"firmware.board_id", a.Firmware.BoardID)
		for j, c := range a.Firmware.Components {
			text(p+"firmware.component."+strconv.Itoa(j)+".version", c.Version) // fw.app.name is a name
			text(p+"firmware.component."+strconv.Itoa(j)+".key", c.Key)
		}
		if a.PCIe != nil {
			check(p+"pcie.limited_by", a.PCIe.LimitedBy, pciAddr(a.PCIe.LimitedBy), wantAddr)
			text(p+"pcie.speed", a.PCIe.Speed)
			text(p+"pcie.capable_speed", a.PCIe.CapableSpeed)
		}
	}
	for i, d := range h.Devices {
		p := "rdma_device." + strconv.Itoa(i) + "."
		check(p+"name", d.Name, d.Name != "" && ifname(d.Name), wantIfname)
		check(p+"provider", d.Provider, module(d.Provider), wantModule)
		check(p+"pci_address", d.PCIAddress, pciAddr(d.PCIAddress), wantAddr)
		check(p+"parent", d.Parent, ifname(d.Parent), wantIfname)
		ver(p+"fw_ver", d.FwVer)
		for _, s := range []struct{ k, v string }{{"node_type", d.NodeType}, {"hca_type", d.HCAType}, {"board_id", d.BoardID}, {"node_guid", d.NodeGUID}, {"protocol", d.Protocol}, {"vendor_id", d.VendorID}, {"vendor_part_id", d.VendorPartID}} {
			text(p+s.k, s.v)
		}
		for j, port := range d.Ports {
			pp := p + "port." + strconv.Itoa(j) + "."
			check(pp+"netdev", port.Netdev, ifname(port.Netdev), wantIfname)
			for _, s := range []struct{ k, v string }{{"state", port.State}, {"phys_state", port.PhysState}, {"link_layer", port.LinkLayer}, {"rate", port.Rate}, {"default_roce_mode", port.DefaultRoCEMode}, {"note", port.Note}} {
				text(pp+s.k, s.v)
			}
		}
	}
	for i, m := range h.Modules {
		p := "module." + strconv.Itoa(i) + "."
		check(p+"name", m.Name, m.Name != "" && module(m.Name), wantModule)
		ver(p+"version", m.Version)
		ver(p+"srcversion", m.SrcVersion)
		text(p+"filename", m.Filename)
		enum(p+"origin", m.Origin, OriginInbox, OriginOFED, OriginVendor, OriginUnknown)
	}
	for i, m := range h.ModulesSeen {
		p := "module_seen." + strconv.Itoa(i) + "."
		check(p+"name", m.Name, m.Name != "" && module(m.Name), wantModule)
		ver(p+"version", m.Version)
	}
	for i, n := range h.Netdevs {
		p := "netdev." + strconv.Itoa(i) + "."
		check(p+"name", n.Name, n.Name != "" && ifname(n.Name), wantIfname)
		check(p+"driver", n.Driver, module(n.Driver), wantModule)
		ver(p+"version", n.Version)
		check(p+"pci_address", n.PCIAddress, pciAddr(n.PCIAddress), wantAddr)
	}
	if s := h.Stack; s != nil {
		text("stack.name", s.Name)
		ver("stack.version", s.Version)
		text("stack.raw", s.Raw)
	}
	for i, e := range h.KernelLog {
		p := "kernel_log." + strconv.Itoa(i) + "."
		text(p+"text", e.Text)
		text(p+"device", e.Device)
		check(p+"module", e.Module, module(e.Module), wantModule)
		for j, c := range e.Context {
			text(p+"context."+strconv.Itoa(j)+".text", c.Text)
		}
	}
	for i, m := range h.ToolMessages {
		text("tool_message."+strconv.Itoa(i)+".text", m.Text)
	}
	for i, d := range h.FirmwareDevices {
		p := "firmware_device." + strconv.Itoa(i) + "."
		for _, f := range []struct{ k, v string }{{"name", d.Name}, {"device_type", d.DeviceType}, {"part_number", d.PartNumber}, {"description", d.Description}, {"psid", d.PSID}, {"status", d.Status}} {
			text(p+f.k, f.v)
		}
		ver(p+"fw_current", d.FWCurrent)
		ver(p+"fw_available", d.FWAvailable)
		ver(p+"fw_running", d.FWRunning)
		for j, v := range d.Versions {
			q := p + "version." + strconv.Itoa(j) + "."
			text(q+"name", v.Name)
			ver(q+"current", v.Current)
			ver(q+"available", v.Available)
		}
	}
	for i, d := range h.MlxConfig {
		p := "mlxconfig." + strconv.Itoa(i) + "."
		for _, f := range []struct{ k, v string }{{"device", d.Device}, {"device_type", d.DeviceType}, {"name", d.Name}} {
			text(p+f.k, f.v)
		}
		for j, pa := range d.Params {
			q := p + "param." + strconv.Itoa(j) + "."
			for _, f := range []struct{ k, v string }{{"name", pa.Name}, {"default", pa.Default}, {"current", pa.Current}, {"next_boot", pa.NextBoot}, {"value", pa.Value}} {
				text(q+f.k, f.v)
			}
		}
	}
	for i, pr := range h.Problems {
		text("problem."+strconv.Itoa(i)+".msg", pr.Msg)
	}
	// Every other string of the record (source ids and paths, GIDs, map
	// keys and values, fields added later) reaches a page, an export or a
	// terminal too: none may hide characters.
	if !everyStr {
		return out
	}
	flagged := map[string]bool{}
	for _, v := range out {
		flagged[v.Path] = true
	}
	eachString(reflect.ValueOf(h).Elem(), make([]string, 0, 8), func(segs []string, v string) {
		i, _ := visible.Find(v)
		if i < 0 {
			return
		}
		if path := strings.Join(segs, "."); !flagged[path] {
			out = append(out, Invalid{Path: path, Value: v, Want: "text without control, bidi or zero-width characters (" + visible.Name(v, i) + " at byte " + strconv.Itoa(i) + ")"})
		}
	})
	return out
}

// EscapeHidden writes every control, bidi and zero-width character of h's
// strings (but tab and newline) as an escape (\x1b, \u202e), and bytes
// that are not UTF-8 as \xNN, so that a record kbcollect writes from a
// snapshot whose log lines hold them validates, showing what was there.
func EscapeHidden(h *Host) { setStrings(reflect.ValueOf(h).Elem(), visible.Escape) }

// setStrings replaces every settable string reachable from v by fn's.
func setStrings(v reflect.Value, fn func(string) string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(fn(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			setStrings(v.Elem(), fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				setStrings(v.Field(i), fn)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			setStrings(v.Index(i), fn)
		}
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			return
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			out.SetMapIndex(reflect.ValueOf(fn(iter.Key().String())).Convert(v.Type().Key()), reflect.ValueOf(fn(iter.Value().String())).Convert(v.Type().Elem()))
		}
		if v.CanSet() {
			v.Set(out)
		}
	}
}

// eachString calls fn with every string in v and its TOML key path, as
// segments: most strings are only looked at, so the path is joined
// (strings.Join(path, ".")) only by a caller that reports it. path is
// reused: fn must not keep it.
func eachString(v reflect.Value, path []string, fn func(path []string, v string)) {
	switch v.Kind() {
	case reflect.String:
		fn(path, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			eachString(v.Elem(), path, fn)
		}
	case reflect.Struct:
		names := tomlNames(v.Type())
		for i, name := range names {
			if name != "" {
				eachString(v.Field(i), append(path, name), fn)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			eachString(v.Index(i), append(path, strconv.Itoa(i)), fn)
		}
	case reflect.Map:
		keys := v.MapKeys()
		name := func(k reflect.Value) string {
			if k.Kind() == reflect.String {
				return k.String() // what fmt.Sprint writes, without its cost
			}
			return fmt.Sprint(k)
		}
		sort.Slice(keys, func(i, j int) bool { return name(keys[i]) < name(keys[j]) })
		for _, k := range keys {
			p := append(path, name(k))
			eachString(k, p, fn)
			eachString(v.MapIndex(k), p, fn)
		}
	}
}

// structNames caches tomlNames by type: every record walks the same few.
var structNames sync.Map // reflect.Type → []string

// tomlNames lists a struct type's fields by their TOML key (the field's
// name when its tag names none); "" for a field that is not exported.
func tomlNames(t reflect.Type) []string {
	if names, ok := structNames.Load(t); ok {
		return names.([]string)
	}
	names := make([]string, t.NumField())
	for i := range names {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			name = f.Name
		}
		names[i] = name
	}
	structNames.Store(t, names)
	return names
}

func isVersion(v string) bool {
	if v == "" {
		return true
	}
	return versionRe.MatchString(v) && strings.ContainsAny(v, "0123456789") && !schemeRe.MatchString(v)
}

func isText(v string) bool {
	if len(v) > maxText || !utf8.ValidString(v) {
		return false
	}
	for _, r := range v {
		if (unicode.IsControl(r) && r != '\t') || visible.Hidden(r) {
			return false
		}
	}
	return true
}

// Check validates h, decoded from src, and returns a problem per invalid
// field at the line and column where the field is written (TOML) or its
// value first appears (JSON).
func Check(name string, src []byte, h *Host) diag.List {
	return positioned(name, src, validate(h, !plainSource(src)))
}

// positioned is a problem per invalid field of a record decoded from src,
// at its place in src.
func positioned(name string, src []byte, bad []Invalid) diag.List {
	if len(bad) == 0 {
		return nil
	}
	var probs diag.List
	var loc *diag.Locator
	if !strings.HasSuffix(name, ".json") {
		loc = diag.NewLocator(src)
	}
	for _, v := range bad {
		var pos diag.Pos
		if loc != nil {
			pos = loc.Pos(v.Path)
		} else {
			pos = jsonPos(src, v.Value)
		}
		probs.Add(name, pos, "%s", v)
	}
	return probs
}

// plainSource reports whether no string decoded from src can hold a
// character visible.Find finds: src is printable ASCII, tab and newline,
// and its backslashes only begin the escapes \\, \", \t and \n, so
// neither a raw byte nor an escape (\u202e, \u001b, \r, \b) can make one.
// A string is then looked at only where its field has a format. Reading
// every string of a record by reflection was a tenth of decoding it.
func plainSource(src []byte) bool {
	for i := 0; i < len(src); i++ {
		if plainBytes[src[i]] {
			continue
		}
		if src[i] != '\\' || i+1 == len(src) {
			return false
		}
		switch src[i+1] {
		case '\\', '"', 't', 'n':
			i++
		default:
			return false
		}
	}
	return true
}

// plainBytes are the bytes plainSource passes over: printable ASCII but
// the backslash, tab and newline.
var plainBytes = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '\\'
	}
	t['\t'], t['\n'] = true, true
	return t
}()

// jsonPos finds where a string value first appears in a JSON document.
func jsonPos(src []byte, v string) diag.Pos {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return diag.Pos{}
	}
	i := bytes.Index(src, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	if i < 0 {
		return diag.Pos{}
	}
	line := bytes.Count(src[:i], []byte("\n")) + 1
	col := i - bytes.LastIndexByte(src[:i], '\n')
	return diag.Pos{Line: line, Col: col}
}
