package matrix

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rocekb/rocekb/internal/suggest"
)

// A Resolution is what a name a person typed resolved to.
type Resolution[T any] struct {
	Value *T     // nil when nothing matched
	How   string // how it matched: "id", "name", "alias", "pci id", "part number", ...
	// Candidates holds every entry an ambiguous name matched, e.g. a PCI id
	// that several adapters share and only a subsystem id tells apart.
	Candidates []*T
	// Suggest holds the closest known ids when nothing matched.
	Suggest []string
}

// fold reduces a name to its letters and digits, lower-cased: CX-5, cx5 and
// "CX 5" all fold to cx5; "RHEL 9.4", rhel9.4 and rhel-9.4 to rhel94.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// AdapterNames lists what else than its id and name an adapter can be
// called, as written: its aliases, the family-number shorthand (ConnectX-5
// → CX-5), its devices' pci.ids names and chip names (MT27800), and its
// part numbers. The form accepts the same names (site's Index).
func (m *Matrix) AdapterNames(a *Adapter) []string {
	var out []string
	m.eachName(a, func(n, _ string) { out = append(out, n) })
	return out
}

// adapterNames maps each name of an adapter, folded, to how it names it.
func (m *Matrix) adapterNames(a *Adapter) map[string]string {
	names := map[string]string{fold(a.ID): "id", fold(a.Name): "name"}
	m.eachName(a, func(n, how string) {
		if _, taken := names[fold(n)]; !taken || how == "alias" || how == "part number" {
			names[fold(n)] = how
		}
	})
	return names
}

// eachName calls f with each of AdapterNames and how it names a.
func (m *Matrix) eachName(a *Adapter, f func(name, how string)) {
	for _, al := range a.Aliases {
		f(al, "alias")
	}
	// "ConnectX-5 Ex" is also "CX-5 Ex", "CX5Ex": NVIDIA's own shorthand.
	if len(a.Name) > 8 && strings.EqualFold(a.Name[:8], "connectx") {
		f("CX"+a.Name[8:], "alias")
	}
	// "BlueField-3" is also "BF3", "BF-3": the shorthand NVIDIA's own
	// BlueField bundles and changes write ("[BF3] Attestable NIC mode",
	// https://github.com/Mellanox/bfb-build/pull/115).
	if len(a.Name) > 9 && strings.EqualFold(a.Name[:9], "bluefield") {
		f("BF"+a.Name[9:], "alias")
	}
	for _, p := range a.PCI {
		if p.Name == "" {
			continue
		}
		// The device's name in pci.ids, as lspci prints it, and without
		// the words after the model that say nothing of it: "MT42822
		// BlueField-2 integrated ConnectX-6 Dx" (network controller).
		f(p.Name, "pci.ids name")
		if short := trimNoiseTail(p.Name); short != "" && short != p.Name {
			f(short, "pci.ids name")
		}
		// pci.ids names look like "MT27800 Family [ConnectX-5]": the chip
		// name before "Family" is what lspci and ibv_devinfo print.
		if chip, _, ok := strings.Cut(p.Name, " Family"); ok && p.Function != "vf" && !strings.Contains(chip, " ") {
			f(chip, "chip name")
		}
	}
	for _, pn := range m.PartsOf(a.ID) {
		f(pn.Number, "part number")
		if b := BoardName(pn.Number); b != "" {
			f(b, "board name")
		}
	}
}

// trimNoiseTail drops from the end of a name its NoiseWords ("network
// controller", "Ethernet NIC"), or returns "" when fewer than two words
// are left: a number ("VIC 1440") or a word alone ("DSC", "Elastic") is
// no name.
func trimNoiseTail(name string) string {
	words := strings.Fields(name)
	n := len(words)
	for n > 0 && slices.Contains(NoiseWords, fold(words[n-1])) {
		n--
	}
	if n < 2 {
		return ""
	}
	return strings.Join(words[:n], " ")
}

// BoardName is the name a part number's board is sold by, or "": Broadcom's
// are the part after the chip's (BCM957508-P2100G is the P2100G). Search
// reads it too.
func BoardName(partNumber string) string {
	if m := broadcomBoard.FindStringSubmatch(partNumber); m != nil {
		return m[1]
	}
	return ""
}

// NVIDIABoardPattern matches an NVIDIA board name as its firmware tools
// print it: MCX631102AN-ADA_Ax, MCX516A-CCA_A1. The form reads it too.
const NVIDIABoardPattern = `^([Mm][Cc][Xx][0-9A-Za-z]+-[0-9A-Za-z]+)_[Aa][0-9Xx]$`

var nvidiaBoard = regexp.MustCompile(NVIDIABoardPattern)

// broadcomBoard matches a Broadcom NIC part number, BCM9 and the chip's
// number, then the board's name.
var broadcomBoard = regexp.MustCompile(`^BCM9\d{5}-([A-Z][A-Z0-9]{3,})$`)

// BroadcomPartPattern matches a Broadcom NIC part number the matrix may not
// list, BCM9 and the chip's number, then the board's name and any ordering
// suffix (BCM957608-P2200G, BCM957608-P2200GQF00, BCM957414A4142CC): the
// chip is BCM and that number, as pci.ids files every part number it names
// under its chip's device (BCM957508-P2100G under BCM57508, BCM957504-P425G
// under BCM57504). The form reads it too (RE2 and JavaScript alike).
const BroadcomPartPattern = `^[Bb][Cc][Mm]9(5[0-9]{4})(-?[0-9A-Za-z]+)$`

var broadcomPart = regexp.MustCompile(BroadcomPartPattern)

// BroadcomPartChip is the chip a Broadcom part number names (BCM57608 for
// BCM957608-P2200G), or "".
func BroadcomPartChip(s string) string {
	if m := broadcomPart.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		return "BCM" + m[1]
	}
	return ""
}

// ResolveAdapter finds the adapter a person named: by id, name, alias,
// shorthand (cx5, CX-5), chip name (MT27800), part number (MCX516A-CCAT) or
// PCI id (15b3:1017, 15b3:1017/1028:0001, or a bare device id 1017 when
// only one vendor uses it). A PCI id that several adapters share without a
// subsystem id comes back with Candidates and no Value.
func (m *Matrix) ResolveAdapter(s string) Resolution[Adapter] {
	s = strings.TrimSpace(s)
	if r, ok := m.resolvePCI(WindowsPCI(s)); ok {
		return r
	}
	text, f := s, fold(s)
	// Each adapter's names, folded once for every lookup below.
	names := make([]map[string]string, len(m.Adapters))
	for i := range m.Adapters {
		names[i] = m.adapterNames(&m.Adapters[i])
	}
	var hits []*Adapter
	how := ""
	for i := range m.Adapters {
		if h, ok := names[i][f]; ok {
			hits = append(hits, &m.Adapters[i])
			how = h
		}
	}
	// The HCA type mlx5_ib reports (ibstat's "CA type: MT4115",
	// /sys/class/infiniband/<dev>/hca_type): "MT" and the PCI device id
	// in decimal (hca_type_show, drivers/infiniband/hw/mlx5/main.c:
	// sysfs_emit(buf, "MT%d\n", dev->mdev->pdev->device)), Mellanox's
	// vendor id. After the names: MT27800 is a chip name.
	if len(hits) == 0 {
		if id := HCAType(s); id != "" {
			if r, ok := m.resolvePCI(id); ok && (r.Value != nil || len(r.Candidates) > 0) {
				return r
			}
		}
	}
	// A part number may carry an ordering suffix the matrix leaves off
	// (MCX516A-CCAT_C01): match the longest known part number it starts with.
	if len(hits) == 0 && len(f) >= 6 {
		best := 0
		for _, pn := range m.Parts {
			if pf := fold(pn.Number); strings.HasPrefix(f, pf) && len(pf) > best {
				best, hits, how = len(pf), []*Adapter{m.Adapter(pn.Adapter)}, "part number"
			}
		}
	}
	// The board name NVIDIA's firmware tools print (mlxfwmanager's Part
	// Number, mstconfig's Name): an ordering part number without its last
	// letter, and the board's revision (MCX631102AN-ADA_Ax for
	// MCX631102AN-ADAT). Every part number it may be the start of must be
	// the same adapter's; else they are the candidates.
	if len(hits) == 0 {
		if b := nvidiaBoard.FindStringSubmatch(s); b != nil {
			bf := fold(b[1])
			for _, pn := range m.Parts {
				if pf := fold(pn.Number); len(pf) == len(bf)+1 && strings.HasPrefix(pf, bf) {
					hits, how = appendAdapter(hits, m.Adapter(pn.Adapter)), "board part number"
				}
			}
		}
	}
	// A Broadcom part number the matrix does not list names a board on
	// its chip (BCM957608-P2200G is a BCM57608 card): the Broadcom adapter
	// that chip names. A bare board name (P2200G) names no chip and stays
	// unresolved.
	if len(hits) == 0 {
		if chip := BroadcomPartChip(s); chip != "" {
			cf := fold(chip)
			for i := range m.Adapters {
				if a := &m.Adapters[i]; a.Vendor == "broadcom" {
					if _, ok := names[i][cf]; ok {
						hits, how = appendAdapter(hits, a), "part number's chip"
					}
				}
			}
		}
	}
	// "Mellanox ConnectX-6 Dx", "Broadcom BCM57414", "Intel E810": a
	// vendor's name or alias before one of its adapters' names.
	if len(hits) == 0 {
		if v, rest := m.vendorPrefix(f); v != nil {
			for i := range m.Adapters {
				if a := &m.Adapters[i]; a.Vendor == v.ID {
					if h, ok := names[i][rest]; ok {
						hits = append(hits, a)
						how = h
					}
				}
			}
			s = rest // suggest by the model's name
		}
	}
	if len(hits) == 0 {
		if r, ok := m.resolveInText(text, names); ok {
			return r
		}
	}
	switch len(hits) {
	case 1:
		return Resolution[Adapter]{Value: hits[0], How: how}
	case 0:
		// A family's name (E810, NetXtreme-E, FastLinQ) names no one
		// adapter: its members are the suggestions, in matrix order,
		// rather than the ids nearest its spelling (NetXtreme-E was
		// offered E810-C, E810-XXV and E830).
		if fam := m.familyMembers(text); len(fam) > 0 {
			return Resolution[Adapter]{Suggest: fam, How: "family"}
		}
		ids := make([]string, len(m.Adapters))
		for i, a := range m.Adapters {
			ids[i] = a.ID
		}
		return Resolution[Adapter]{Suggest: closestIDs(s, ids, func(id string) []string {
			var out []string
			for k, how := range names[slices.Index(ids, id)] {
				// A part number one character off is another card, and
				// the digit after the letters is its generation (MCX456A
				// is a ConnectX-4, MCX556A a ConnectX-5): a part number
				// is suggested only for one of its own prefix.
				if how == "part number" && PartPrefix(fold(s)) != PartPrefix(k) {
					continue
				}
				out = append(out, k)
			}
			return out
		})}
	default:
		return Resolution[Adapter]{How: how, Candidates: hits}
	}
}

// familyMembers returns the ids of the adapters whose family is s (folded,
// with or without a vendor's name before it), or nil.
func (m *Matrix) familyMembers(s string) []string {
	fams, f := m.Families(), fold(s)
	if ids := fams[f]; len(ids) > 0 {
		return ids
	}
	if v, rest := m.vendorPrefix(f); v != nil && rest != "" {
		return fams[rest]
	}
	return nil
}

// Families maps each adapter family's name, folded, to its members' ids
// in matrix order: the adapters a family's name is answered with, by the
// CLI and the form alike.
func (m *Matrix) Families() map[string][]string {
	out := map[string][]string{}
	for _, a := range m.Adapters {
		if f := fold(a.Family); f != "" {
			out[f] = append(out[f], a.ID)
		}
	}
	return out
}

// ModuleName is a kernel module's name as modprobe reads it: "-" and "_"
// alike, any case ("MLX5-CORE" is mlx5_core).
func ModuleName(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
}

// ModuleAdapters maps each kernel module that drives an adapter (its RDMA
// driver, such as qedr or mlx5_ib, and its Ethernet driver, such as qede or
// mlx5_core) to those adapters' ids, in matrix order: what a person who
// names a driver where an adapter is wanted is offered, by the CLI and the
// form alike.
func (m *Matrix) ModuleAdapters() map[string][]string {
	out := map[string][]string{}
	for _, a := range m.Adapters {
		for _, mod := range []string{a.RDMADriver, a.EthDriver} {
			if mod = ModuleName(mod); mod != "" && !slices.Contains(out[mod], a.ID) {
				out[mod] = append(out[mod], a.ID)
			}
		}
	}
	return out
}

// ModuleDrives is the adapters the kernel module s names drive:
// ModuleAdapters' entry for s, or else those of every module s starts
// ("mlx5" for mlx5_core and mlx5_ib, "bnxt" for bnxt_en and bnxt_re), the
// modules taken in name order; nil when s names none.
func (m *Matrix) ModuleDrives(s string) []string {
	mods, s := m.ModuleAdapters(), ModuleName(s)
	if ids, ok := mods[s]; ok || s == "" {
		return ids
	}
	var out []string
	for _, mod := range slices.Sorted(maps.Keys(mods)) {
		if strings.HasPrefix(mod, s+"_") {
			for _, id := range mods[mod] {
				if !slices.Contains(out, id) {
					out = append(out, id)
				}
			}
		}
	}
	return out
}

// NoiseWords are the words (folded) a longer description of an adapter
// adds around its name, as lspci, pci.ids and product pages write them:
// "Ethernet controller: Mellanox Technologies MT27800 Family [ConnectX-5]",
// "ConnectX-6 Dx EN adapter card, 100GbE", "Ethernet Controller E810-C for
// QSFP". Speeds (100GbE, 10Gb/25Gb), numbers and PCI addresses are noise
// too (NoisePattern), and so is a vendor's word when that vendor's adapter
// is named. The form reads the same list.
var NoiseWords = []string{
	"ethernet", "controller", "network", "networking", "adapter", "card", "nic", "smartnic", "en", "vpi",
	// The role a product name gives the card ("NVIDIA ConnectX-8
	// SuperNIC", "AMD Pensando Pollara 400 AI NIC"), not its model.
	"supernic", "ai",
	"family", "series", "rdma", "roce", "connection", "port", "ports", "single", "dual", "quad",
	"singleport", "dualport", "quadport", "for", "with", "pcie", "pci", "express", "ocp", "ocp3", "ocp30",
	"mezzanine", "qsfp", "qsfp28", "qsfp56", "qsfp112", "qsfpdd", "osfp", "sfp", "sfp28", "sfp56",
	"sfp112", "backplane", "rev", "inc", "corp", "corporation", "co", "ltd", "llc", "technologies",
	"technology", "systems", "communications", "and", "subsidiaries", "company",
	// A speed's unit written apart from its number ("100 GbE"), and
	// InfiniBand's rates and name on a VPI card ("EDR IB (100Gb/s)").
	"gbe", "gb", "gbs", "gbps", "gbit", "sdr", "ddr", "qdr", "fdr", "fdr10", "edr", "hdr", "hdr100", "ndr",
	"ndr200", "xdr", "ib", "infiniband",
	// A trademark's mark ("Intel(R) Ethernet Controller E810-C") and the
	// driver's role Windows adds ("QLogic FastLinQ QL41000 Series
	// Controller (VBD Client)").
	"r", "tm", "vbd", "client",
}

// NoisePattern matches a word that is noise whatever it says: a speed
// (100GbE, 10Gb/25Gb, 25G, 4x25G), a number (a revision, a PCI class), a
// PCI address, a PCIe generation or link width (PCIe4.0, Gen4, x16).
// PCIInTextPattern finds vvvv:dddd ids in a text ([15b3:1017],
// 0x15b3:0x1017), not the parts of a PCI address (0000:3b:00.0). The form
// reads both (RE2 and JavaScript alike).
const (
	NoisePattern     = `^(([0-9]+x)?[0-9]+(/[0-9]+)*(gbe|gb|g|gbps|gbits)?(/[0-9]+(gbe|gb|g))*(/s)?|[0-9a-f]{4}|([0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|x(1|2|4|8|16)|pcie?[0-9.]*|gen[0-9])$`
	PCIInTextPattern = `(?:^|[^0-9a-fx:])(?:0x)?([0-9a-f]{4}):(?:0x)?([0-9a-f]{4})(?:$|[^0-9a-f:.])`
)

// A text longer than MaxTextWords words names no adapter (a whole lspci
// -vvv pasted into the field), and no adapter's name is longer than
// MaxNameWords words: the text's windows stay few. The form keeps the same
// bounds.
const (
	MaxTextWords = 32
	MaxNameWords = 10
)

// WindowsPCIID matches the ids of a PCI id as Windows writes it (Device
// Manager's hardware id, PowerShell's PnP device id), in any case:
// VEN_1077&DEV_8070&SUBSYS_10027053, VEN_1414&DEV_00BA. SUBSYS is the
// subsystem's device id, then its vendor's. Plain syntax shared with
// JavaScript: the form and the static search read it too.
const WindowsPCIID = `[Vv][Ee][Nn]_([0-9A-Fa-f]{4})&[Dd][Ee][Vv]_([0-9A-Fa-f]{4})(?:&[Ss][Uu][Bb][Ss][Yy][Ss]_([0-9A-Fa-f]{4})([0-9A-Fa-f]{4}))?`

// WindowsPCIPattern matches a whole name that is a Windows PCI id,
// PCI\VEN_1077&DEV_8070&SUBSYS_10027053&REV_02 with what may follow it.
const WindowsPCIPattern = `^(?:[Pp][Cc][Ii]\\)?` + WindowsPCIID + `(?:&[Rr][Ee][Vv]_[0-9A-Fa-f]{2})?(?:\\\S*)?$`

var (
	noiseRe   = regexp.MustCompile(NoisePattern)
	pciInText = regexp.MustCompile(PCIInTextPattern)
	windowsID = regexp.MustCompile(WindowsPCIPattern)
)

// WindowsPCI rewrites a PCI id as Windows writes it (WindowsPCIPattern)
// as vvvv:dddd[/ssss:ssss]; anything else comes back as it was.
func WindowsPCI(s string) string {
	g := windowsID.FindStringSubmatch(s)
	if g == nil {
		return s
	}
	id := strings.ToLower(g[1] + ":" + g[2])
	if g[3] != "" {
		id += "/" + strings.ToLower(g[4]+":"+g[3])
	}
	return id
}

// adapterNoise reports whether a word (lower-cased, its brackets and
// punctuation trimmed) says nothing of which adapter a text names, and
// the vendors it names when it is one of a vendor's words.
func (m *Matrix) adapterNoise(w string) (noise bool, vendors []string) {
	f := fold(w)
	if noiseRe.MatchString(w) || f == "" || slices.Contains(NoiseWords, f) {
		return true, nil
	}
	for i := range m.Vendors {
		v := &m.Vendors[i]
		for _, n := range append([]string{v.ID, v.Name}, v.Aliases...) {
			for _, vw := range strings.Fields(n) {
				if fold(vw) == f && !slices.Contains(vendors, v.ID) {
					vendors = append(vendors, v.ID)
				}
			}
		}
	}
	return len(vendors) > 0, vendors
}

// resolveInText reads a longer text that names an adapter: an lspci line,
// a pci.ids name, a product name with its speed and form factor. One PCI
// id in it decides; else every word must be noise or part of a name, the
// longest first, and all the names one adapter's. names holds each
// adapter's folded names (adapterNames), in m.Adapters' order.
func (m *Matrix) resolveInText(s string, names []map[string]string) (Resolution[Adapter], bool) {
	low := strings.ToLower(s)
	var ids []string
	for _, g := range pciInText.FindAllStringSubmatch(low, -1) {
		if id := g[1] + ":" + g[2]; !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 1 {
		if r, ok := m.resolvePCI(ids[0]); ok && (r.Value != nil || len(r.Candidates) > 0) {
			return r, true
		}
	}
	words := strings.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune("[](),;", r) {
			return ' '
		}
		return r
	}, low))
	for i, w := range words {
		words[i] = strings.Trim(w, ":.\"'")
	}
	if len(words) < 2 || len(words) > MaxTextWords {
		return Resolution[Adapter]{}, false
	}
	var found *Adapter
	var vendors [][]string // the vendors each vendor word names
	how := ""
	for i := 0; i < len(words); {
		j := min(len(words), i+MaxNameWords)
		for ; j > i; j-- {
			if r := m.namedAdapter(fold(strings.Join(words[i:j], " ")), names); r.Value != nil {
				if found != nil && found != r.Value {
					return Resolution[Adapter]{}, false
				}
				found, how = r.Value, r.How
				break
			}
		}
		if j > i {
			i = j
			continue
		}
		noise, vs := m.adapterNoise(words[i])
		if !noise {
			return Resolution[Adapter]{}, false
		}
		if vs != nil {
			vendors = append(vendors, vs)
		}
		i++
	}
	if found == nil {
		return Resolution[Adapter]{}, false
	}
	for _, vs := range vendors {
		if !slices.Contains(vs, found.Vendor) {
			return Resolution[Adapter]{}, false // "Broadcom ConnectX-5"
		}
	}
	return Resolution[Adapter]{Value: found, How: how + " in text"}, true
}

// namedAdapter is the one adapter a folded name names exactly.
func (m *Matrix) namedAdapter(f string, names []map[string]string) Resolution[Adapter] {
	var hit *Adapter
	how := ""
	for i := range m.Adapters {
		if h, ok := names[i][f]; ok {
			if hit != nil {
				return Resolution[Adapter]{}
			}
			hit, how = &m.Adapters[i], h
		}
	}
	return Resolution[Adapter]{Value: hit, How: how}
}

// vendorPrefix returns the vendor whose id, name or alias a folded name
// starts with (the longest such), and the rest of the name.
func (m *Matrix) vendorPrefix(f string) (*Vendor, string) {
	var best *Vendor
	rest := f
	for i := range m.Vendors {
		v := &m.Vendors[i]
		for _, n := range append([]string{v.ID, v.Name}, v.Aliases...) {
			if p := fold(n); p != "" && len(p) < len(f) && strings.HasPrefix(f, p) && len(f)-len(p) < len(rest) {
				best, rest = v, f[len(p):]
			}
		}
	}
	return best, rest
}

// resolvePCI reads vvvv:dddd[/ssss:ssss] or a bare 4-hex device id.
// hcaType is an HCA type as mlx5_ib reports it: MT and a
// decimal PCI device id.
var hcaType = regexp.MustCompile(`^(?i:MT)([0-9]{4,5})$`)

// HCAType is the PCI id (15b3:dddd) an HCA type names ("MT4115" is
// 15b3:1013), or "" for any other text.
func HCAType(s string) string {
	g := hcaType.FindStringSubmatch(strings.TrimSpace(s))
	if g == nil {
		return ""
	}
	n, err := strconv.Atoi(g[1])
	if err != nil || n > 0xffff {
		return ""
	}
	return fmt.Sprintf("15b3:%04x", n)
}

func (m *Matrix) resolvePCI(s string) (Resolution[Adapter], bool) {
	s = strings.ToLower(s)
	id, sub, _ := strings.Cut(s, "/")
	if !pciRe.MatchString(id) {
		if !hex4.MatchString(s) || !strings.ContainsAny(s, "0123456789") {
			return Resolution[Adapter]{}, false
		}
		// A bare device id: every vendor's device with that number.
		var ids []string
		for _, a := range m.Adapters {
			for _, p := range a.PCI {
				if strings.HasSuffix(p.ID, ":"+s) && !contains(ids, p.ID) {
					ids = append(ids, p.ID)
				}
			}
		}
		if len(ids) != 1 {
			return Resolution[Adapter]{}, false
		}
		id = ids[0]
	}
	if sub != "" && !pciRe.MatchString(sub) {
		return Resolution[Adapter]{}, false
	}
	var plain, withSub []*Adapter
	for i := range m.Adapters {
		a := &m.Adapters[i]
		for _, p := range a.PCI {
			if p.ID != id {
				continue
			}
			switch {
			case p.Subsystem == "":
				plain = appendAdapter(plain, a)
			case p.Subsystem == sub:
				return Resolution[Adapter]{Value: a, How: "pci id and subsystem"}, true
			default:
				withSub = appendAdapter(withSub, a)
			}
		}
	}
	cands := withSub
	for _, a := range plain {
		cands = appendAdapter(cands, a)
	}
	switch len(cands) {
	case 0:
		return Resolution[Adapter]{}, true
	case 1:
		// One adapter, listed with and without subsystem ids.
		return Resolution[Adapter]{Value: cands[0], How: "pci id"}, true
	default:
		// Only the subsystem id names the model (1137:0043 is every Cisco
		// VIC): the caller explains the candidates.
		return Resolution[Adapter]{How: "pci id", Candidates: cands}, true
	}
}

func appendAdapter(s []*Adapter, a *Adapter) []*Adapter {
	for _, x := range s {
		if x == a {
			return s
		}
	}
	return append(s, a)
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// ResolveDistro finds a distro release by id or by a folded name: rhel9.4,
// "RHEL 9.4", rhel-9.4 and "Red Hat Enterprise Linux 9.4" name one release;
// "Oracle Linux 9.4 UEK" and "OL 9.4 RHCK" name the kernel of an Oracle
// Linux release, and "Oracle Linux 9.4", which names both, comes back with
// Candidates (their ids in Suggest) and no Value. A Rocky Linux, CentOS or AlmaLinux release
// without an entry of its own resolves to the RHEL release of its number
// with How "rebuild": the matrix says nothing of its own kernel, so the
// verdict engine judges it as RHEL's only as a hint.
//
// A name as the host itself prints it resolves too: os-release's
// PRETTY_NAME and /etc/redhat-release ("Red Hat Enterprise Linux release
// 8.6 (Ootpa)", "Debian GNU/Linux 12 (bookworm)", "CentOS Linux release
// 7.9.2009 (Core)"), without the words that name no release. A name that
// stops short of a release (rhel 9, el8, or an Ubuntu point release,
// 22.04.3, whose kernel may be GA or HWE) comes back with the releases it
// may mean as Candidates.
func (m *Matrix) ResolveDistro(s string) Resolution[Distro] {
	r := m.resolveDistro(s)
	if r.Value != nil || len(r.Candidates) > 0 {
		return r
	}
	if c := osName(s); c != s && c != "" {
		r2 := m.resolveDistro(c)
		if r2.Value != nil || len(r2.Candidates) > 0 {
			return r2
		}
		if len(r2.Suggest) > 0 {
			r.Suggest = r2.Suggest
		}
		s = c
	}
	if r2 := m.releasesOf(s); r2.Value != nil || len(r2.Candidates) > 0 {
		return r2
	}
	return r
}

// osName drops from a distro's name what os-release and the release files
// add around it: a KEY= and quotes, parentheses (a codename), and the words
// "release", "Server", "LTS" and "GNU/Linux".
func osName(s string) string {
	s = strings.TrimSpace(s)
	if k, v, ok := strings.Cut(s, "="); ok && k != "" && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "" {
		s = v
	}
	s = strings.Trim(s, "\"' ")
	// A label before it, as hostnamectl ("Operating System: ...") and
	// lsb_release -d ("Description:\tUbuntu 22.04.4 LTS") print it.
	if k, v, ok := strings.Cut(s, ":"); ok && strings.TrimSpace(v) != "" && strings.TrimSpace(k) != "" && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz \t") == "" {
		s = strings.TrimSpace(v)
	}
	// The words outside parentheses, and a release's LTS mark or service
	// pack in them (openEuler's "22.03 (LTS-SP3)"), which are kept.
	type word struct {
		w    string
		kept bool
	}
	var words []word
	add := func(text string, kept bool) {
		for _, w := range strings.Fields(text) {
			words = append(words, word{w, kept})
		}
	}
	var out, in strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			if depth == 0 {
				add(out.String(), false)
				out.Reset()
			}
			depth++
		case r == ')' && depth > 0:
			if depth--; depth == 0 {
				if p := strings.TrimSpace(in.String()); servicePack.MatchString(p) {
					add(strings.ReplaceAll(p, "-", " "), true)
				}
				in.Reset()
			}
		case depth == 0:
			out.WriteRune(r)
		default:
			in.WriteRune(r)
		}
	}
	add(out.String(), false)
	var kept []string
	for i, w := range words {
		switch strings.ToLower(w.w) {
		case "release", "server", "gnu/linux":
		case "lts":
			// Dropped (Ubuntu 22.04.3 LTS), but in parentheses or before a
			// service pack (openEuler 22.03 LTS SP3).
			if w.kept || i+1 < len(words) && servicePack.MatchString(words[i+1].w) {
				kept = append(kept, w.w)
			}
		default:
			kept = append(kept, w.w)
		}
	}
	return strings.Join(kept, " ")
}

// servicePack matches a release's LTS mark or service pack: LTS, SP3,
// LTS-SP3.
var servicePack = regexp.MustCompile(`(?i)^(?:LTS|(?:LTS[- ])?SP\d+)$`)

// releasesOf reads a name as a family and a version that stops short of a
// matrix release: a major version alone (rhel 9, el8, Rocky 8), or a
// version with more parts than the family's releases have (CentOS's
// 7.9.2009, Ubuntu's point release 22.04.3). It returns the one release it
// names, or the family's releases it may mean as Candidates: all of an
// Ubuntu release's kernels (GA and HWE), since a point release may run
// either.
func (m *Matrix) releasesOf(s string) Resolution[Distro] {
	s = strings.ToLower(s)
	i := strings.IndexFunc(s, unicode.IsDigit)
	if i <= 0 {
		return Resolution[Distro]{}
	}
	fam, ver := fold(s[:i]), strings.TrimRight(s[i:], " ")
	if n, ok := distroFamilies[fam]; ok {
		fam = n
	}
	// "Ubuntu 22.04.5 HWE": the HWE release the matrix names by that
	// point release ("(HWE kernel, 22.04.5)", as its source does), and no
	// other: each point release had its own HWE kernel.
	if v, ok := strings.CutSuffix(strings.TrimSuffix(ver, " kernel"), " hwe"); ok && fam == "ubuntu" {
		var hwe []*Distro
		for i := range m.Distros {
			if d := &m.Distros[i]; d.Family == fam && d.Flavour == "hwe" && strings.Contains(d.Name, ", "+v+")") {
				hwe = append(hwe, d)
			}
		}
		if len(hwe) == 1 {
			return Resolution[Distro]{Value: hwe[0], How: "name"}
		}
		return Resolution[Distro]{}
	}
	// "Oracle Linux 10 UEK 8", "OL9 UEK R7", "ol10-uek", "OL 8 RHCK": a
	// major version (or a release) with the kernel it runs, which the ids
	// spell after the release (oracle-10.1-uek): every release of it on
	// that kernel, and of the UEK generation named, when one is.
	if fam == "oracle" {
		if k := oracleKernel.FindStringSubmatch(ver); k != nil {
			return m.oracleReleases(k[1], k[2], strings.NewReplacer(" ", "", "-", "").Replace(k[3]))
		}
	}
	for _, c := range ver {
		if c != '.' && !unicode.IsDigit(c) {
			return Resolution[Distro]{}
		}
	}
	parts := strings.Split(ver, ".")
	of := func(fam string, match func(v string) bool) []*Distro {
		var out []*Distro
		for i := range m.Distros {
			d := &m.Distros[i]
			if (fold(d.Family) == fold(fam) && d.Rebuild == "" || d.Rebuild != "" && fold(d.Rebuild) == fold(fam)) && match(d.Version) {
				out = append(out, d)
			}
		}
		return out
	}
	var cands []*Distro
	switch {
	case len(parts) == 1:
		major := func(v string) bool { return strings.HasPrefix(v, ver+".") || strings.HasPrefix(v, ver+"-") }
		if cands = of(fam, major); len(cands) == 0 && slices.Contains(rhelRebuilds, fam) {
			cands = of("rhel", major)
		}
	case len(parts) > 2 && fam == "ubuntu":
		cands = of(fam, func(v string) bool { return v == parts[0]+"."+parts[1] })
	case fam == "amzn":
		// Amazon Linux 2023.6.20241212 is a release of Amazon Linux 2023,
		// which may run any of its kernel lines.
		cands = of(fam, func(v string) bool { return v == parts[0] })
	case len(parts) > 2:
		return m.resolveDistro(s[:i] + " " + parts[0] + "." + parts[1])
	case fam == "debian":
		// Debian 12.5 is a point release of Debian 12, on its kernel.
		return m.resolveDistro("debian " + parts[0])
	}
	if len(cands) == 0 {
		return Resolution[Distro]{}
	}
	slices.SortFunc(cands, func(a, b *Distro) int {
		if c := compareReleases(a.Version, b.Version); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	r := Resolution[Distro]{How: "name", Candidates: cands}
	for _, d := range cands {
		r.Suggest = append(r.Suggest, d.ID)
	}
	return r
}

// oracleKernel matches an Oracle Linux version followed by the kernel it
// runs: "10 uek 8", "9-uek", "9.4 uek r7", "8 rhck" (lower case); the
// groups are the version, the kernel (uek or rhck) and the UEK generation.
var oracleKernel = regexp.MustCompile(`^(\d+(?:\.\d+)?)[ -]*(uek|rhck)[ -]*((?:r[ -]*)?\d+)?$`)

// oracleReleases are the Oracle Linux releases of version ver (a major
// version names each of its releases) whose ids say they run kernel (uek
// or rhck) and, for UEK with a generation gen ("8", "r7"), whose name
// says that generation ("Oracle Linux 9.6 (UEK 8)").
func (m *Matrix) oracleReleases(ver, kernel, gen string) Resolution[Distro] {
	var cands []*Distro
	for i := range m.Distros {
		d := &m.Distros[i]
		if d.Family != "oracle" && d.Rebuild != "oracle" || !strings.HasSuffix(d.ID, "-"+kernel) {
			continue
		}
		if d.Version != ver && !strings.HasPrefix(d.Version, ver+".") {
			continue
		}
		if gen != "" {
			_, in, _ := strings.Cut(d.Name, "(")
			if g := strings.TrimPrefix(fold(strings.TrimSuffix(in, ")")), "uek"); g != gen && g != "r"+gen && "r"+g != gen {
				continue
			}
		}
		cands = append(cands, d)
	}
	switch len(cands) {
	case 0:
		return Resolution[Distro]{}
	case 1:
		return Resolution[Distro]{Value: cands[0], How: "name"}
	}
	slices.SortStableFunc(cands, func(a, b *Distro) int { return compareReleases(a.Version, b.Version) })
	r := Resolution[Distro]{How: "name", Candidates: cands}
	for _, d := range cands {
		r.Suggest = append(r.Suggest, d.ID)
	}
	return r
}

// compareReleases orders two release versions (9.10 after 9.9, 15-SP5
// after 15-SP4) by their numbers.
func compareReleases(a, b string) int {
	num := func(s string) []int {
		var out []int
		for _, p := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) {
			n := 0
			for _, c := range p {
				n = n*10 + int(c-'0')
			}
			out = append(out, n)
		}
		return out
	}
	return slices.Compare(num(a), num(b))
}

func (m *Matrix) resolveDistro(s string) Resolution[Distro] {
	f := fold(s)
	// Each release's id and name, folded once: a host record's distro is
	// resolved here when its kernel release names none.
	// A name's family is also read as its ids spell it: "Oracle Linux 8.9
	// (UEK R7)" is oracle89uekr7, as "OL8.9 UEKR7" is.
	ids, names, canon := make([]string, len(m.Distros)), make([]string, len(m.Distros)), make([]string, len(m.Distros))
	for i := range m.Distros {
		ids[i], names[i] = fold(m.Distros[i].ID), fold(m.Distros[i].Name)
		canon[i] = familyAsID(names[i])
	}
	named := func(n string) *Distro {
		for i := range m.Distros {
			if n == ids[i] || n == names[i] || n == canon[i] {
				return &m.Distros[i]
			}
		}
		return nil
	}
	if d := named(f); d != nil {
		return Resolution[Distro]{Value: d, How: "id"}
	}
	// The family as its ids spell it: oracle-9.4-uek, rhel-9.4, almalinux-10.1.
	n := familyAsID(f)
	if d := named(n); n != f && d != nil {
		return Resolution[Distro]{Value: d, How: "name"}
	}
	// A release's name in its name's parentheses: Debian's codenames
	// ("Debian 12 (bookworm)"), when one release has it.
	var named1 *Distro
	for i := range m.Distros {
		d := &m.Distros[i]
		if _, in, ok := strings.Cut(d.Name, "("); ok && isLetters(f) && (fold(strings.TrimSuffix(in, ")")) == f || fold(d.Family)+fold(strings.TrimSuffix(in, ")")) == f) {
			if named1 != nil {
				named1 = nil
				break
			}
			named1 = d
		}
	}
	if named1 != nil {
		return Resolution[Distro]{Value: named1, How: "name"}
	}
	// A release the matrix has under several kernels (Oracle Linux 9.4:
	// UEK and RHCK) or service packs (openEuler 22.03: LTS, LTS SP1 to
	// SP4): the id with a kernel's name or a service pack after the
	// release.
	var cands []*Distro
	for i := range m.Distros {
		d := &m.Distros[i]
		if rest, ok := strings.CutPrefix(ids[i], n); ok && rest != "" && isLetters(rest[:1]) && n != "" && n[len(n)-1] >= '0' && n[len(n)-1] <= '9' {
			cands = append(cands, d)
		}
	}
	if len(cands) > 0 {
		slices.SortStableFunc(cands, func(a, b *Distro) int { return compareReleases(a.Version, b.Version) })
		r := Resolution[Distro]{How: "name", Candidates: cands}
		for _, d := range cands {
			r.Suggest = append(r.Suggest, d.ID)
		}
		return r
	}
	for _, fam := range rhelRebuilds {
		if rest, ok := strings.CutPrefix(n, fam); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			if d := named("rhel" + rest); d != nil {
				return Resolution[Distro]{Value: d, How: "rebuild"}
			}
			n = "rhel" + rest // suggest the RHEL releases near it
			break
		}
	}
	all := make([]string, len(m.Distros))
	for i := range m.Distros {
		all[i] = m.Distros[i].ID
	}
	return Resolution[Distro]{Suggest: closestIDs(n, all, func(id string) []string { return []string{fold(id)} })}
}

// distroFamilies maps what people call a distro family (folded) to how
// the matrix's ids spell it.
var distroFamilies = map[string]string{
	"oraclelinux": "oracle", "ol": "oracle",
	"redhatenterpriselinux": "rhel", "redhat": "rhel",
	"rockylinux": "rocky", "alma": "almalinux", "almalinux": "almalinux",
	"el": "rhel", "centoslinux": "centos",
	"amazonlinux": "amzn", "al": "amzn",
	// Cloud distros by their product names: os-release's NAME="Microsoft
	// Azure Linux" (PRETTY_NAME "Microsoft Azure Linux 3.0"), and "Alibaba
	// Cloud Linux 3" for the alinux releases.
	"microsoftazurelinux": "azure-linux", "azurelinux": "azure-linux",
	"alibabacloudlinux": "alinux",
	// SUSE Linux Enterprise, SLES's and SLED's common base ("SLE15 SP5").
	"sle": "sles",
}

// familyAsID spells a folded name's family as the matrix's ids do (ol9.4
// → oracle94), when a release number follows it.
func familyAsID(f string) string {
	for alias, id := range distroFamilies {
		if rest, ok := strings.CutPrefix(f, alias); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return fold(id) + rest
		}
	}
	return f
}

// rhelRebuilds are the families (as distroFamilies spells them) built from
// RHEL's sources that the matrix judges as RHEL where it has no entry.
var rhelRebuilds = []string{"rocky", "centos", "almalinux"}

// RHELRebuild reports whether a family (an os-release ID, lower-case) is
// built from RHEL's sources and judged as RHEL where the matrix has no
// entry of its own.
func RHELRebuild(family string) bool { return slices.Contains(rhelRebuilds, family) }

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// stackAliases are the names people give the vendor stacks; keys are folded.
var stackAliases = map[string]string{
	"mofed": "mlnx-ofed", "mlnxofed": "mlnx-ofed", "mlnxofedlinux": "mlnx-ofed", "ofed": "mlnx-ofed", "mellanoxofed": "mlnx-ofed",
	"doca": "doca-ofed", "docahost": "doca-ofed", "docaofed": "doca-ofed",
	"enic": "cisco-enic", "enicrdma": "cisco-enic", "cisco": "cisco-enic",
	"rxe": "softroce", "rdmarxe": "softroce",
	"distro": "inbox", "kernel": "inbox", "upstream": "inbox", "native": "inbox",
}

// Inbox is the stack id of the kernel's own drivers.
const Inbox = "inbox"

// ResolveStack finds a stack by id, name or common alias (mofed, doca,
// enic). "inbox" (also "distro", "kernel") resolves with a nil Value.
func (m *Matrix) ResolveStack(s string) (id string, r Resolution[Stack]) {
	f := fold(s)
	if a, ok := stackAliases[f]; ok {
		f = fold(a)
	}
	if f == Inbox {
		return Inbox, Resolution[Stack]{How: "id"}
	}
	ids := []string{Inbox}
	for i := range m.Stacks {
		st := &m.Stacks[i]
		ids = append(ids, st.ID)
		if f == fold(st.ID) || f == fold(st.Name) {
			return st.ID, Resolution[Stack]{Value: st, How: "id"}
		}
	}
	// A word of one stack's id, name or modules ("bnxt", "irdma", "qedr",
	// "intel"): what people call a vendor's out-of-tree driver package.
	var hit *Stack
	for i := range m.Stacks {
		st := &m.Stacks[i]
		words := strings.FieldsFunc(strings.Join(append([]string{st.ID, st.Name}, st.Modules...), " "), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})
		// A module's whole name too: "bnxt_re".
		words = append(words, st.Modules...)
		if slices.ContainsFunc(words, func(w string) bool { return len(w) > 2 && fold(w) == f }) {
			if hit != nil {
				hit = nil
				break
			}
			hit = st
		}
	}
	if hit != nil {
		return hit.ID, Resolution[Stack]{Value: hit, How: "name"}
	}
	return "", Resolution[Stack]{Suggest: closestIDs(s, ids, func(id string) []string {
		names := []string{fold(id)}
		for alias, to := range stackAliases {
			if to == id {
				names = append(names, alias)
			}
		}
		return names
	})}
}

// SplitStack reads a stack named with its release: id@release
// (mlnx-ofed@5.8-1.0.1.1), or a stack's name or alias and its release
// joined by a dash, underscore or space, as `ofed_info -s` prints them
// (MLNX_OFED_LINUX-5.8-3.0.7.0:, DOCA-OFED 2.9.0), or a package's name
// (stackRelease). A name that is a stack itself, or that names none, comes
// back whole with no release.
func (m *Matrix) SplitStack(s string) (name, release string) {
	if n, r, ok := strings.Cut(s, "@"); ok {
		return n, r
	}
	t := strings.TrimRight(strings.TrimSpace(s), ":")
	if id, _ := m.ResolveStack(t); id != "" {
		return t, ""
	}
	digit := func(i int) bool { return i < len(t) && t[i] >= '0' && t[i] <= '9' }
	for i := 1; i < min(len(t), 64); i++ { // a stack's name is short
		c := t[i-1]
		switch {
		case c == '-' || c == '_' || c == ' ':
			// The release, or a v and the release ("OFED v24.10-3.2.5.0").
			j := i
			if (t[j] == 'v' || t[j] == 'V') && digit(j+1) {
				j++
			}
			if digit(j) {
				if id, _ := m.ResolveStack(t[:i-1]); id != "" {
					return t[:i-1], stackRelease(t[j:])
				}
			}
		case (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && digit(i):
			// A name and its release run together, as NVIDIA's Network
			// Operator tags its driver container: doca3.1.0-25.07-0.9.7.0-0.
			if id, _ := m.ResolveStack(t[:i]); id != "" {
				return t[:i], stackRelease(t[i:])
			}
		}
	}
	return s, ""
}

var (
	// releaseLTS is a release's LTS mark: "5.8 LTS", "2.9 (LTS)".
	releaseLTS = regexp.MustCompile(`(?i)\s*\(?\bLTS\)?$`)
	// releaseFile is a package's file extension.
	releaseFile = regexp.MustCompile(`(?i)(?:[._](?:amd64|x86_64|aarch64|arm64))?\.(?:tgz|tar\.gz|iso|deb|rpm)$`)
	// docaHost is a DOCA-Host package's version: the DOCA release, its
	// build and its drivers' version (doca-host-2.9.1-010000-24.10), or
	// the release and its drivers' version as the Network Operator tags
	// them (doca3.1.0-25.07-0.9.7.0-0).
	docaHost = regexp.MustCompile(`^(\d+\.\d+\.\d+)-(?:\d{6}(?:-|$)|\d{2}\.\d{2}-\d)`)
)

// ReadRelease is stackRelease: a release as people paste it, given apart
// from the stack's name (--stack-version, a target's stack_version).
func ReadRelease(r string) string { return stackRelease(r) }

// stackRelease reads a release as people paste it: without an LTS mark,
// and from a package's name without what follows the release, the
// distribution and architecture it was built for
// (MLNX_OFED_LINUX-23.10-1.1.9.0-rhel9.2-x86_64.tgz, whose release is
// 23.10-1.1.9.0; a release's own suffix, 23.10-2.1.3.1-201, is digits).
func stackRelease(r string) string {
	r = strings.TrimSpace(r)
	// ofed_info's first line names the OFED release it is built from
	// after it: MLNX_OFED_LINUX-24.10-1.1.4.0 (OFED-24.10-1.1.4).
	if i := strings.Index(r, " (OFED-"); i > 0 && strings.HasSuffix(r, ")") {
		r = r[:i]
	}
	r = releaseLTS.ReplaceAllString(releaseFile.ReplaceAllString(r, ""), "")
	if m := docaHost.FindStringSubmatch(r); m != nil {
		return m[1]
	}
	for i := 1; i < len(r); i++ {
		if r[i-1] == '-' && unicode.IsLetter(rune(r[i])) {
			return r[:i-1]
		}
	}
	return r
}

// closestIDs returns up to three ids whose names are closest to s, nearest
// first, or none when nothing is close.
func closestIDs(s string, ids []string, names func(id string) []string) []string {
	var all []string
	idOf := map[string]string{}
	for _, id := range ids {
		for _, n := range names(id) {
			if _, ok := idOf[n]; !ok {
				idOf[n] = id
				all = append(all, n)
			}
		}
	}
	var out []string
	for _, n := range suggest.Closest(fold(s), all, len(all)) {
		if id := idOf[n]; !slices.Contains(out, id) {
			out = append(out, id)
		}
		if len(out) == 3 {
			break
		}
	}
	return out
}

// PartPrefix is a folded part number's letters and the digit after them
// (mcx4 for MCX456A-ECAT, bcm9 for BCM957414A4142CC), or "" when it has
// none: part numbers of different prefixes name different generations.
func PartPrefix(f string) string {
	for i, r := range f {
		if r >= '0' && r <= '9' {
			if i == 0 {
				return ""
			}
			return f[:i+1]
		}
	}
	return ""
}

// DidYouMean formats suggestions for an error message.
func DidYouMean(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
}
