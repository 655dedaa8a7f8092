package iplink

import (
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Link is one netdev as ip prints it.
type Link struct {
	Index     int      // the ifindex before the name
	Name      string   // the netdev
	Peer      string   // what follows '@' in "bond0.3000@bond0": the lower device, or NONE
	Flags     []string // the flags between < and >, as printed: UP, LOWER_UP, NO-CARRIER, SLAVE, MASTER …
	MTU       *int     // mtu
	Qdisc     string   // qdisc
	Master    string   // master: the bond, bridge or VRF it is enslaved to
	State     string   // state: the operational state as printed (UP, DOWN, UNKNOWN, LOWERLAYERDOWN …)
	LinkType  string   // the link-layer type of "link/<type>": ether, loopback, infiniband, none …
	Address   string   // the link-layer address after "link/<type>"
	AltNames  []string // altname lines
	ParentBus string   // -d: parentbus (pci for a PCI function's netdev)
	ParentDev string   // -d: parentdev, the device on that bus (0000:01:00.0)
	VFs       []VF     // the VF lines of an SR-IOV PF
	Line      int      // 1-based line of the link's first line
}

// LowerUp reports whether the flags say the link has its carrier.
func (l Link) LowerUp() bool { return slices.Contains(l.Flags, "LOWER_UP") }

// VF is one "vf N" line of a PF.
type VF struct {
	Num        int    // the VF's index
	MAC        string // MAC, or link/ether in newer iproute2
	VLAN       *int   // vlan, when printed
	SpoofCheck string // spoof checking: on or off
	LinkState  string // link-state: auto, enable or disable
	Trust      string // trust: on or off; empty when not printed
}

var (
	// A link's first line: "2: enp1s0f0np0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 …",
	// "5: bond0.3000@bond0: <…>".
	reHead = regexp.MustCompile(`^(\d+):\s+([^\s:@]+)(?:@([^\s:]+))?:\s+<([^>]*)>(.*)$`)
	// "link/ether 94:40:c9:c3:67:fa brd …", "link/loopback …", "link/none".
	// -br's one line a link (iproute2 ip/ipaddress.c,
	// print_linkinfo_brief): the name, the operational state, the
	// link-layer address when there is one, the flags; "lo  UNKNOWN
	// 00:00:00:00:00:00 <LOOPBACK,UP,LOWER_UP>".
	reBrief = regexp.MustCompile(`^([^\s@<>]+)(?:@(\S+))?\s+([A-Z]+)\s+(?:([^\s<>]+)\s+)?<([^>]*)>$`)
	// -o address's one line an address (print_addrinfo, oneline): the
	// ifindex and name, then the family; "10: eth8    inet6
	// fe80::9e52:f8ff:fe8e:f307/64 scope link \ valid_lft forever …". It
	// says the link is there, not its flags or state.
	reAddrLine  = regexp.MustCompile(`^(\d+):\s+([^\s:@]+)(?:@\S+)?\s+inet6?\s`)
	reLinkLayer = regexp.MustCompile(`^link/(\S+)(?:\s+(\S+))?`)
	reVF        = regexp.MustCompile(`^vf\s+(\d+)\b(.*)$`)
	reVFMAC     = regexp.MustCompile(`(?:\bMAC|link/ether)\s+([0-9a-fA-F:]+)`)
	reVFVLAN    = regexp.MustCompile(`\bvlan\s+(\d+)`)
	reVFSpoof   = regexp.MustCompile(`spoof checking\s+(on|off)`)
	reVFState   = regexp.MustCompile(`link-state\s+(\w+)`)
	reVFTrust   = regexp.MustCompile(`\btrust\s+(on|off)`)
)

// headKeys are the words of a link's first line that take a value; a
// line that starts with one continues a first line a mail or a terminal
// wrapped ("… qdisc mq" then "state UP qlen 1000").
var headKeys = map[string]bool{"mtu": true, "qdisc": true, "master": true, "state": true, "mode": true, "group": true, "qlen": true}

// Parse reads every link in r. A link runs from its first line to the
// next; its other lines are known by what they start with (link/,
// altname, vf) or hold (parentbus), indented or not, so statistics,
// addresses of `ip address` and lines of other tools are skipped. Prompts,
// fences, mail quote marks, markdown bold marks and inline code spans are
// dropped; -o's backslashes split a line into the lines it joined. A
// first line cut before its closing '>' (a truncated paste) is no link.
func Parse(r io.Reader) ([]Link, error) {
	var out []Link
	cur := -1 // index in out of the link whose lines are being read
	n := 0
	err := lines.Each(r, func(line string) {
		n++
		for _, part := range strings.Split(line, `\`) {
			t := unmark(part)
			if t == "" {
				continue
			}
			if m := reHead.FindStringSubmatch(t); m != nil {
				idx, _ := strconv.Atoi(m[1])
				l := Link{Index: idx, Name: m[2], Peer: m[3], Line: n}
				for _, f := range strings.Split(m[4], ",") {
					if f = strings.TrimSpace(f); f != "" {
						l.Flags = append(l.Flags, f)
					}
				}
				head(&l, m[5])
				out = append(out, l)
				cur = len(out) - 1
				continue
			}
			if m := reAddrLine.FindStringSubmatch(t); m != nil {
				idx, _ := strconv.Atoi(m[1])
				if !slices.ContainsFunc(out, func(l Link) bool { return l.Index == idx && l.Name == m[2] }) {
					out = append(out, Link{Index: idx, Name: m[2], Line: n})
				}
				cur = -1
				continue
			}
			if m := reBrief.FindStringSubmatch(t); m != nil {
				l := Link{Name: m[1], Peer: m[2], State: m[3], Address: m[4], Line: n}
				for _, f := range strings.Split(m[5], ",") {
					if f = strings.TrimSpace(f); f != "" {
						l.Flags = append(l.Flags, f)
					}
				}
				out = append(out, l)
				cur = -1 // -br prints no other line of a link
				continue
			}
			if cur < 0 {
				continue
			}
			detail(&out[cur], t)
		}
	})
	return out, err
}

// unmark drops what a paste puts around a line: mail quote marks,
// markdown bold marks, an inline code span's backticks.
func unmark(s string) string {
	t := strings.TrimSpace(s)
	t = strings.TrimLeft(t, "> \t`*")
	t = strings.TrimRight(t, " \t`*")
	return t
}

// head reads the words after a first line's flags.
func head(l *Link, rest string) {
	w := strings.Fields(rest)
	for i := 0; i+1 < len(w); i++ {
		if !headKeys[w[i]] {
			continue
		}
		v := w[i+1]
		switch w[i] {
		case "mtu":
			if n, err := strconv.Atoi(v); err == nil {
				l.MTU = &n
			}
		case "qdisc":
			l.Qdisc = v
		case "master":
			l.Master = v
		case "state":
			l.State = v
		}
		i++
	}
}

// detail reads one of a link's other lines.
func detail(l *Link, t string) {
	first, _, _ := strings.Cut(t, " ")
	switch {
	case headKeys[first]:
		head(l, t)
	case strings.HasPrefix(t, "link/"):
		if m := reLinkLayer.FindStringSubmatch(t); m != nil {
			l.LinkType, l.Address = m[1], m[2]
			if l.Address == "brd" {
				l.Address = ""
			}
		}
	case first == "altname":
		if w := strings.Fields(t); len(w) == 2 {
			l.AltNames = append(l.AltNames, w[1])
		}
	default:
		if m := reVF.FindStringSubmatch(t); m != nil {
			l.VFs = append(l.VFs, parseVF(m[1], m[2]))
			return
		}
	}
	// -d's details follow the link layer on its line or on lines of
	// their own, as the iproute2 release prints them.
	w := strings.Fields(t)
	for i := 0; i+1 < len(w); i++ {
		switch w[i] {
		case "parentbus":
			l.ParentBus = w[i+1]
		case "parentdev":
			l.ParentDev = strings.ToLower(w[i+1])
		}
	}
}

func parseVF(num, rest string) VF {
	v := VF{}
	v.Num, _ = strconv.Atoi(num)
	if m := reVFMAC.FindStringSubmatch(rest); m != nil {
		v.MAC = m[1]
	}
	if m := reVFVLAN.FindStringSubmatch(rest); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			v.VLAN = &n
		}
	}
	if m := reVFSpoof.FindStringSubmatch(rest); m != nil {
		v.SpoofCheck = m[1]
	}
	if m := reVFState.FindStringSubmatch(rest); m != nil {
		v.LinkState = m[1]
	}
	if m := reVFTrust.FindStringSubmatch(rest); m != nil {
		v.Trust = m[1]
	}
	return v
}
