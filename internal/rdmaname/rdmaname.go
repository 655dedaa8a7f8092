package rdmaname

import (
	"fmt"
	"strconv"
	"strings"
)

// Policy is the rdma_rename mode a name was made by.
type Policy string

const (
	// PCI is NAME_PCI: the PCI domain, bus, slot and function
	// ([P<domain>]p<bus>s<slot>[f<func>[v<vf>]][S<sfnum>]), or the
	// physical slot's number in place of bus and slot (s<sun>).
	PCI Policy = "NAME_PCI"
	// Onboard is NAME_ONBOARD: the firmware's onboard index (o<index>,
	// from the function's acpi_index or SMBIOS index).
	Onboard Policy = "NAME_ONBOARD"
	// GUID is NAME_GUID: the node GUID (x<16 hex digits>).
	GUID Policy = "NAME_GUID"
)

// prefixes are the link types rdma_rename's names start with, longest
// first where one is the head of another.
var prefixes = []struct{ prefix, link string }{
	{"roce", "RoCE"}, {"rdma", "unknown"}, {"opa", "OPA"}, {"ib", "InfiniBand"}, {"iw", "iWARP"},
}

// Name is what a device name rdma_rename made says. Numbers rdma_rename
// printed in decimal (%u) are kept as numbers; the name's domain and bus
// are the PCI address's, which writes them in hex.
type Name struct {
	Prefix string // ib, roce, iw, opa or rdma
	Link   string // the link type the prefix stands for: InfiniBand, RoCE, iWARP, OPA, or "unknown" (rdma)
	Policy Policy

	// NAME_PCI. Slot is the PCI device number (p<bus>s<slot>), or with
	// SlotNumber the physical slot's number (s<sun>, where
	// /sys/bus/pci/slots/<sun>/address names the bus).
	Domain, Bus, Slot int
	SlotNumber        bool
	Function          *int // f<func>: absent on a single-function device, which is function 0
	VF                *int // v<vf>: the device is this virtual function of the PCI function named
	SF                *int // S<sfnum>: the device is this sub-function of the PCI function named

	Index    int    // NAME_ONBOARD's o<index>
	NodeGUID string // NAME_GUID's node GUID, as ibv_devinfo prints it (5254:00c0:fe12:3455)
}

// onboardMax is rdma_rename's ONBOARD_INDEX_MAX (16*1024-1), which it
// takes from systemd's udev-builtin-net_id.c.
const onboardMax = 16*1024 - 1

// Parse reads a device name rdma_rename could have made. A name of
// another form (mlx5_0, rxe0, a fixed name) is not one: ok is false.
// Numbers must be printed as %u prints them (no leading zeros), and each
// must fit its PCI field, so "rocep0s8" is one and "rocep0s08" is not.
func Parse(s string) (n Name, ok bool) {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p.prefix) {
			n.Prefix, n.Link = p.prefix, p.link
			break
		}
	}
	if n.Prefix == "" {
		return Name{}, false
	}
	r := reader{s: s[len(n.Prefix):]}
	switch {
	case r.take('o'):
		n.Policy = Onboard
		v, ok := r.num()
		if !ok || v > onboardMax || !r.done() {
			return Name{}, false
		}
		n.Index = v
		return n, true
	case r.take('x'):
		n.Policy = GUID
		h := r.s[r.i:]
		if len(h) != 16 || strings.Trim(h, "0123456789abcdef") != "" {
			return Name{}, false
		}
		n.NodeGUID = h[0:4] + ":" + h[4:8] + ":" + h[8:12] + ":" + h[12:16]
		return n, true
	}
	n.Policy = PCI
	if r.take('P') {
		d, ok := r.num()
		if !ok || d == 0 { // rdma_rename writes P only for a domain above 0
			return Name{}, false
		}
		n.Domain = d
	}
	switch {
	case r.take('p'):
		b, ok := r.num()
		if !ok || b > 0xff || !r.take('s') {
			return Name{}, false
		}
		n.Bus = b
		if n.Slot, ok = r.num(); !ok || n.Slot > 0x1f {
			return Name{}, false
		}
	case r.take('s'):
		var ok bool
		if n.Slot, ok = r.num(); !ok || n.Slot == 0 { // find_sun returns a slot above 0
			return Name{}, false
		}
		n.SlotNumber = true
	default:
		return Name{}, false
	}
	if r.take('f') {
		f, ok := r.num()
		if !ok || f > 0xff {
			return Name{}, false
		}
		n.Function = &f
		if r.take('v') {
			v, ok := r.num()
			if !ok {
				return Name{}, false
			}
			n.VF = &v
		}
	}
	if r.take('S') {
		sf, ok := r.num()
		if !ok {
			return Name{}, false
		}
		n.SF = &sf
	}
	if !r.done() {
		return Name{}, false
	}
	return n, true
}

// Parent is the PCI function the name was made from, as the kernel writes
// it (0002:01:00.1): the device's own function, or for a virtual function
// its physical function, for a sub-function the function it sits on. It
// is empty when the name does not give one: a physical slot's number
// (the bus is in /sys/bus/pci/slots/<n>/address), an onboard index or a
// GUID.
//
// A function past 7 is an ARI device's: rdma_rename adds the slot times
// 8 to it (after systemd's udev-builtin-net_id.c), so it must be the
// slot's eighth multiple plus 0 to 7, or the name is not a PCI address.
func (n Name) Parent() string {
	if n.Policy != PCI || n.SlotNumber {
		return ""
	}
	slot, fn := n.Slot, 0
	if n.Function != nil {
		fn = *n.Function
	}
	if fn > 7 {
		if fn/8 != slot {
			return ""
		}
		fn %= 8
	}
	return fmt.Sprintf("%04x:%02x:%02x.%x", n.Domain, n.Bus, slot, fn)
}

// Address is the device's own PCI function: Parent, when the device is
// neither a virtual function (whose function the name does not give, only
// its number under Parent) nor a sub-function (an auxiliary device, not a
// PCI function).
func (n Name) Address() string {
	if n.VF != nil || n.SF != nil {
		return ""
	}
	return n.Parent()
}

// Absent says why the name gives no PCI function of the device, and what
// would; empty when Address gives it.
func (n Name) Absent() string {
	if n.Address() != "" {
		return ""
	}
	switch {
	case n.Policy == Onboard:
		return "an onboard index (" + strconv.Itoa(n.Index) + "), not a PCI address: the function whose acpi_index or index file holds it"
	case n.Policy == GUID:
		return "a node GUID (" + n.NodeGUID + "), not a PCI address: the device's sysfs link or the adapter with that GUID"
	case n.SlotNumber:
		return "a physical slot's number (" + strconv.Itoa(n.Slot) + "), not a PCI bus: /sys/bus/pci/slots/" + strconv.Itoa(n.Slot) + "/address"
	case n.Parent() == "":
		return "a function number that is not the slot's ARI function: no PCI address"
	case n.VF != nil:
		return "virtual function " + strconv.Itoa(*n.VF) + " of " + n.Parent() + ": the physical function's virtfn" + strconv.Itoa(*n.VF) + " link"
	default:
		return "sub-function " + strconv.Itoa(*n.SF) + " on " + n.Parent() + ": an auxiliary device, not a PCI function"
	}
}

// reader walks a name.
type reader struct {
	s string
	i int
}

func (r *reader) take(c byte) bool {
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

func (r *reader) done() bool { return r.i == len(r.s) }

// num reads a decimal number as %u prints it: no sign, no leading zero
// but for 0 itself, and below 2^31, so an int holds it on any platform.
func (r *reader) num() (int, bool) {
	j := r.i
	for j < len(r.s) && r.s[j] >= '0' && r.s[j] <= '9' {
		j++
	}
	d := r.s[r.i:j]
	if d == "" || len(d) > 1 && d[0] == '0' {
		return 0, false
	}
	v, err := strconv.ParseUint(d, 10, 31)
	if err != nil {
		return 0, false
	}
	r.i = j
	return int(v), true
}
