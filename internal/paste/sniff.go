package paste

import (
	"regexp"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/ethtool"
	"github.com/rocekb/rocekb/internal/lspci"
	"github.com/rocekb/rocekb/internal/source"
)

// A rule recognises the output of one command by what it says, for text a
// paste gives without its command line. The first rule that matches wins,
// so the specific ones come first.
type rule struct {
	line string // the table command it is filed as
	test func(text string) bool
}

// layouts are the rules whose tool prints one output in layouts several
// table commands name (lspci's flags): each gives the command the
// text's layout shows, so the record names no flag that was not used.
var layouts = map[string]func(text string) string{"lspci -nnvv": lspciLayout}

// own are the rules whose test looks for a layout only their tool prints
// (a header, a block's keys), not for words other output may hold
// ("CentOS Linux release", "MLNX_OFED_LINUX-", a kernel log line, a PCI
// address at the start of a line): their text is read even after a
// prompt running some other command.
var own = map[string]bool{
	"mlxfwmanager --query": true, "flint -d {device} q": true, "mst status -v": true, "ibv_devinfo -v": true, "ibv_devinfo": true,
	"ibv_devices": true, "ibstat": true, "ibstatus": true, "show_gids": true, "rxe_cfg status": true, "ibdev2netdev": true, "rdma link show": true,
	"rdma dev show": true, "rdma res show": true, "rdma statistic show": true, "devlink dev info": true, "devlink health show": true, "modinfo {module}": true, "ethtool -i {netdev}": true, "lsmod": true,
	"lspci -tv": true, "kubectl logs {pod}": true, "lshw -class network": true, "ethtool {netdev}": true, "ip link": true, "cat /proc/interrupts": true, "mlxconfig -d {device} query": true,
}

var (
	// ibv_devinfo -l's header: "8 HCAs found:" ("0 HCAs found:" with none).
	reDevinfoList = regexp.MustCompile(`(?m)^\d+ HCAs? found:\s*$`)
	reKernelLine  = regexp.MustCompile(`(?m)^\s*(?:\d+[:\s]\s*)?\[\s*\d+\.\d+\]\s`)
	// A syslog line, behind the facility and severity some templates
	// print first ("kern.err: Aug 15 12:21:39 host kernel: …").
	reJournal = regexp.MustCompile(`(?m)^(?:[a-z]+[0-7]?\.[a-z]+: )?[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ kernel: `)
	// An lspci device line: the address, then the class's name (which
	// starts with a capital) or, with -n, its number and a colon. A
	// kernel message wrapped before its device's address ("0000:45:00.0
	// eth0: TX timeout …") is none.
	reLspci = regexp.MustCompile(`(?m)^(?:[0-9a-f]{4,8}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] (?:[A-Z]|[0-9a-f]{4}: )`)
	// rdma link heads: "link dev/port", or "idx/port: dev/port:" before iproute2 v5.5.0.
	reRdmaLink = regexp.MustCompile(`(?m)^(?:link \S+/\d+|\d+/\d+: \S+/\d+:) (?:subnet_prefix|state) `)
	// show_gids' header; a cut paste may lack its n_gids_found= tail.
	// rdma resource lines: the summary ("0: mlx5_0: pd 3 cq 8 …"), QPs and
	// CM ids ("link mlx5_0/1 lqpn 1 …", "-" for no port), the other objects
	// ("dev mlx5_0 cqn 2 …"); rdma dev's "0: mlx5_0: node_type ca …".
	reRdmaRes = regexp.MustCompile(`(?m)^(?:\d+: \S+: (?:pd|cq|qp|cm_id|mr|ctx|srq) \d|link \S+/(?:\d+|-) lqpn \d|dev \S+ (?:cqn|cqe|mrn|mrlen|rkey|pdn|users|ctxn|srqn) )`)
	// rdma statistic: a port's head, then its counters as "name value"
	// pairs (a name of letters, digits and "_": not "cm-idn" or
	// "qp-type" of a resource line), or with -p alone, its counters
	// indented below.
	reRdmaStat = regexp.MustCompile(`(?m)^link [^\s/]+/\d+(?: [a-z]\w* \d+ [a-z]\w* \d+|[ \t]*\n[ \t]+[a-z]\w* \d+[ \t]*$)`)
	reRdmaDev  = regexp.MustCompile(`(?m)^\d+: \S+: node_type \S+`)
	// rdma -j: an array of objects, each headed by the device's ifindex.
	reRdmaJSON = regexp.MustCompile(`^\s*\[\s*\{\s*"ifindex"\s*:\s*\d+\s*,\s*"(?:ifname|port)"`)
	reShowGIDs = regexp.MustCompile(`(?m)^\s*DEV\s+PORT\s+INDEX\s+GID\s`)
	// rxe_cfg's status table header (rxe_cfg, rxe_cfg status, rxe_cfg
	// start print it), its columns in rdma-core's rxe_cfg order.
	reRxeCfg      = regexp.MustCompile(`(?m)^\s*Name\s+Link\s+Driver\s+Speed\s+NMTU\s+IPv4_addr\s+RDEV\s+RMTU\b`)
	reMstTable    = regexp.MustCompile(`(?m)^DEVICE_TYPE\s+MST\s+PCI\s`)
	reProcVersion = regexp.MustCompile(`(?m)^Linux version \d+\.\d+\S* \(`)
	reDevlink     = regexp.MustCompile(`(?m)^(?:pci|auxiliary)/\S+:\s*$`)
	// devlink health's reporter and its state line ("reporter fw", then
	// "state healthy error 0 recover 0 …").
	reDevlinkHealth = regexp.MustCompile(`(?m)^\s*(?:reporter|name) \S+\s*\n\s*state (?:healthy|error) error \d+ recover \d+`)
	reOSRelease     = regexp.MustCompile(`(?m)^ID="?[\w.-]+"?\s*$`)
	reRedHat        = regexp.MustCompile(`(?m)^(?:Red Hat Enterprise Linux|CentOS|Rocky Linux|AlmaLinux|Oracle Linux|Scientific Linux)\b.* release \d`)
	// lspci -t's diagram: a host bridge's bus drawn at the left
	// ("-+-[0000:00]-+-", " +-[0000:80]-", " \\-[00]-+-" before PCI domains),
	// and a function hanging from a branch ("+-04.0", "--00.0").
	reLspciTree     = regexp.MustCompile(`(?m)^[ \t|]*[-+\\]?-?[+\\]?-\[(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}\]-`)
	reLspciTreeFunc = regexp.MustCompile(`[-+\\]-[0-9a-fA-F]{2}\.[0-7]\b`)
	// A Kubernetes device plugin's line naming a PCI function it found
	// or added to a pool (internal/deviceplugin).
	reDevicePlugin = regexp.MustCompile(`(?m)(?:(?:DiscoverHostDevices|discoverDevices|AddTargetDevices)\(\): (?:PCI )?device found: |device added: \[(?:pciAddr|identifier): )(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]`)
	// mlxconfig's and mstconfig's query: its "Configurations:" header
	// with the columns it names, or a parameter line whose values are
	// its enums ("LINK_TYPE_P1   IB(1)", "SRIOV_EN   False(0)   True(1)"),
	// as a grep or a cut paste of the query holds.
	reMlxconfig = regexp.MustCompile(`(?m)^Configurations:\s+(?:Default|Current|Next Boot)\b|^\*?[ \t]+[A-Z][A-Z0-9]*_[A-Za-z0-9_]*[ \t]+[A-Za-z_]+\(\d+\)(?:[ \t]+[A-Za-z_]+\(\d+\))*[ \t]*$`)
	// lshw's network node: its "*-network" header in the tree, or the
	// bus info and configuration lines a grep keeps; a -businfo row.
	reLshw            = regexp.MustCompile(`(?m)^[ \t]*\*-network(?::\d+)?(?:[ \t]+[A-Z]+)?[ \t]*$|^[ \t]*bus info: pci@|^pci@[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7][ \t]+(?:\S+[ \t]+)?network\b`)
	reEthtoolSettings = regexp.MustCompile(`(?m)^[ \t>|#]*Settings for \S+:[ \t]*$`)
	// ip link's (and ip address's) first line of a link: "2: ens1f0np0:
	// <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500", behind quote marks or
	// a backtick.
	reIPLink = regexp.MustCompile(`(?m)^[>|*\x60 \t]*\d+: [^\s:]+: <[A-Z0-9_,-]*> mtu \d+`)
	// /proc/interrupts: its CPU header, or an IRQ line with its per-CPU
	// counts and a message-signalled chip.
	reInterrupts = regexp.MustCompile(`(?m)^[>| \t]*CPU0(?:[ \t]+CPU\d+)*[ \t]*$|^[>| \t]*\d+:(?:[ \t]+\d+)+[ \t]+[^\n]*MSI`)
	reUnameA     = regexp.MustCompile(`(?m)^Linux \S+ \d+\.\d+\S* #\S+ .*(?:GNU/Linux|x86_64|aarch64|ppc64le|s390x)\s*$`)
)

var rules = []rule{
	{"mlxfwmanager --query", func(s string) bool {
		return strings.Contains(s, "Querying Mellanox devices firmware") || strings.Contains(s, "PSID:") && strings.Contains(s, "Device Type:")
	}},
	// flint's and mstflint's query; the device is not in the output.
	{"flint -d {device} q", func(s string) bool {
		return strings.Contains(s, "Image type:") && strings.Contains(s, "FW Version:")
	}},
	{"mlxconfig -d {device} query", func(s string) bool {
		return reMlxconfig.MatchString(s) || strings.Contains(s, "Device type:") && strings.Contains(s, "\nDevice:") && !strings.Contains(s, "PSID:")
	}},
	{"mst status -v", func(s string) bool {
		return strings.Contains(s, "MST modules:") || strings.Contains(s, "MST devices:") || reMstTable.MatchString(s)
	}},
	{"ibv_devinfo -v", func(s string) bool { return strings.Contains(s, "hca_id:") && strings.Contains(s, "max_qp:") }},
	{"ibv_devinfo", func(s string) bool {
		return strings.Contains(s, "hca_id:") || strings.Contains(s, "No IB devices found") || reDevinfoList.MatchString(s)
	}},
	{"ibv_devices", func(s string) bool { return strings.Contains(s, "node GUID") && strings.Contains(s, "device") }},
	{"ibstat", func(s string) bool { return strings.Contains(s, "CA '") && strings.Contains(s, "CA type:") }},
	{"ibstatus", func(s string) bool { return strings.Contains(s, "Infiniband device '") }},
	{"show_gids", func(s string) bool { return reShowGIDs.MatchString(s) }},
	{"rxe_cfg status", func(s string) bool { return reRxeCfg.MatchString(s) }},
	{"ibdev2netdev", func(s string) bool { return strings.Contains(s, " ==> ") && strings.Contains(s, " port ") }},
	{"rdma link show", func(s string) bool {
		return reRdmaLink.MatchString(s) || reRdmaJSON.MatchString(s) && strings.Contains(s, `"physical_state"`)
	}},
	{"rdma dev show", func(s string) bool {
		return reRdmaDev.MatchString(s) || reRdmaJSON.MatchString(s) && strings.Contains(s, `"node_type"`)
	}},
	// Every resource output is read by one parser, so all are filed as one.
	{"rdma res show", func(s string) bool { return reRdmaRes.MatchString(s) || reRdmaJSON.MatchString(s) }},
	{"rdma statistic show", func(s string) bool { return reRdmaStat.MatchString(s) }},
	{"devlink dev info", func(s string) bool { return reDevlink.MatchString(s) && strings.Contains(s, "driver ") }},
	{"devlink health show", func(s string) bool { return reDevlinkHealth.MatchString(s) }},
	{"modinfo {module}", func(s string) bool {
		return strings.Contains(s, "filename:") && (strings.Contains(s, "srcversion:") || strings.Contains(s, "vermagic:"))
	}},
	// Before lspci: the "device found" line holds a PCI address too, though
	// not at the start of its line.
	{"kubectl logs {pod}", func(s string) bool { return reDevicePlugin.MatchString(s) }},
	{"lspci -nnvv", func(s string) bool { return reLspci.MatchString(s) }},
	{"lspci -tv", func(s string) bool { return reLspciTree.MatchString(s) && reLspciTreeFunc.MatchString(s) }},
	{"ethtool -i {netdev}", func(s string) bool {
		return strings.Contains(s, "driver: ") && strings.Contains(s, "bus-info:")
	}},
	// lshw's nodes, or its -businfo rows ("pci@<address>  <netdev>  network").
	{"lshw -class network", func(s string) bool {
		return reLshw.MatchString(s)
	}},
	// ethtool <netdev>: its "Settings for <dev>:" head, then its keys.
	{"ethtool {netdev}", func(s string) bool {
		return reEthtoolSettings.MatchString(s) && (strings.Contains(s, "Link detected:") || strings.Contains(s, "Speed:"))
	}},
	// ip link's links; /proc/interrupts' header or MSI lines.
	{"ip link", func(s string) bool { return reIPLink.MatchString(s) }},
	{"cat /proc/interrupts", func(s string) bool { return reInterrupts.MatchString(s) }},
	{"lsmod", func(s string) bool { return strings.Contains(s, "Module") && strings.Contains(s, "Used by") }},
	{"ofed_info -s", func(s string) bool {
		return strings.Contains(s, "MLNX_OFED_LINUX-") || strings.Contains(s, "OFED-internal-")
	}},
	{"journalctl -k --no-pager", func(s string) bool { return reJournal.MatchString(s) }},
	{"cat /etc/os-release", func(s string) bool { return reOSRelease.MatchString(s) && strings.Contains(s, "VERSION_ID=") }},
	{"cat /etc/redhat-release", func(s string) bool { return reRedHat.MatchString(s) }},
	{"cat /proc/version", func(s string) bool { return reProcVersion.MatchString(s) }},
	{"uname -a", func(s string) bool { return reUnameA.MatchString(s) }},
	{"dmesg", func(s string) bool { return reKernelLine.MatchString(s) }},
}

// sniff files loose lines by what they say, or returns nil.
func sniff(lines []string) *Section {
	text := strings.Join(lines, "\n")
	r := sniffRule(text)
	if r < 0 {
		return nil
	}
	ru := rules[r]
	if layout := layouts[ru.line]; layout != nil {
		ru.line = layout(text)
	}
	s := ru.section()
	s.own = own[rules[r].line]
	return s
}

// sniffRule is the index of the first rule that recognises the text, or -1.
func sniffRule(text string) int {
	if strings.TrimSpace(text) == "" {
		return -1
	}
	for i, r := range rules {
		if r.test(text) {
			return i
		}
	}
	return -1
}

// ruleRows are the source table's row of each rule (a rule of no row, the
// flint query, is its own): outputs of one row (ibv_devinfo and
// ibv_devinfo -v, /proc/version and uname -a) are one output to split.
// The rules of ownOutput are their own row.
var ruleRows = func() []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		id := source.Cmd(r.line)
		if f, ok := strings.CutPrefix(r.line, "cat /"); ok {
			id = source.ID(f)
		}
		out[i] = r.line
		if t, ok := source.Of(id); ok && !ownOutput[r.line] {
			out[i] = t.Name
		}
	}
	return out
}()

// ownOutput are rules whose row holds outputs that each have a parser of
// their own: iproute2's rdma prints a link, a device, a resource or a
// counter line per object (rdma/link.c, dev.c, res.c, stat.c), and the
// collector reads each command's output alone (rdmatool.ParseLink,
// ParseDev, ParseRes, ParseStat), so rdma dev's "0: bnxt_re0: node_type
// ca …" after rdma link's lines starts another output, not one kept with
// the links and never read.
var ownOutput = map[string]bool{
	"rdma link show": true, "rdma dev show": true, "rdma res show": true, "rdma statistic show": true,
}

// splitLoose cuts loose lines (no command line among them) where a line
// on its own is the output of another row than the lines before it: an
// os-release file, then a "Linux version …" line; ibdev2netdev's lines,
// then "hca_id: mlx5_0". Each part is then sniffed alone. A line that says
// nothing on its own (ibv_devinfo's "max_qp:", os-release's "ID=") never
// starts a part, and lines no rule recognises stay with what they follow.
// An ethtool -i block starts one at its "driver:" line, or at the line
// before it that names its interface ("===== eth0 =====").
func splitLoose(lines []string) [][]string {
	var parts [][]string
	start, row := 0, "" // the part being read, and its row once known
	for i := 1; i < len(lines); i++ {
		r := sniffRule(lines[i])
		at := i
		if r < 0 {
			r = headOfTwo(lines, i)
		}
		if r < 0 {
			if r = ethtoolBlock(lines, i); r < 0 {
				continue
			}
			if at > start+1 && ethtool.Banner(lines[at-1]) != "" {
				at--
			}
		}
		if row == "" {
			if prev := sniffRule(strings.Join(lines[start:i], "\n")); prev >= 0 {
				row = ruleRows[prev]
			}
		}
		switch {
		case row == "":
			row = ruleRows[r]
		case row != ruleRows[r]:
			parts = append(parts, lines[start:at])
			start, row = at, ruleRows[r]
		}
	}
	return append(parts, lines[start:])
}

// headOfTwo is the rule that recognises lines i and i+1 together when
// neither does alone, else -1: an output whose head takes two lines
// starts its part at the first. ibstat prints "CA 'bnxt_re0'", then
// "\tCA type: …" (infiniband-diags ibstat.c ca_dump), and its rule needs
// both; devlink health's "reporter fw", then its state line, likewise.
func headOfTwo(lines []string, i int) int {
	if i+1 >= len(lines) || sniffRule(lines[i+1]) >= 0 {
		return -1
	}
	return sniffRule(lines[i] + "\n" + lines[i+1])
}

// ethtoolBlock is the ethtool -i rule's index when line i opens a block
// of its output ("driver: hns3", its bus-info line among the next ones),
// else -1.
func ethtoolBlock(lines []string, i int) int {
	if !strings.HasPrefix(strings.TrimSpace(lines[i]), "driver: ") {
		return -1
	}
	for _, l := range lines[i+1 : min(len(lines), i+8)] {
		if strings.HasPrefix(strings.TrimSpace(l), "bus-info:") {
			return ethtoolRule
		}
	}
	return -1
}

// ethtoolRule is the index of the ethtool -i rule.
var ethtoolRule = slices.IndexFunc(rules, func(r rule) bool { return r.line == "ethtool -i {netdev}" })

var (
	// lspci's -nn prints the class's and the device's ids in brackets
	// after their names ("Ethernet controller [0200]: … [15b3:1017]"),
	// -n the numbers alone ("0200: 15b3:1017"). The class's comes first,
	// before a mail can wrap the line.
	reLspciNames   = regexp.MustCompile(`(?m)^(?:[0-9a-f]{4,8}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] [^\n]*?(?:\[[0-9a-f]{4}\]: |\[[0-9a-f]{4}:[0-9a-f]{4}\])`)
	reLspciNumeric = regexp.MustCompile(`(?m)^(?:[0-9a-f]{4,8}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] [0-9a-f]{4}: [0-9a-f]{4}:[0-9a-f]{4}`)
	// -vv adds each device's command and status registers, numbers its
	// regions and prints the capabilities' registers (lspci.c
	// show_verbose, ls-caps.c); -vvv prints the same lines for the
	// devices a paste shows, so a paste's layout tells -vv at most.
	reLspciVV = regexp.MustCompile(`(?m)^\s*(?:Control: I/O[+-]|Status: Cap[+-]|Region \d+: |DevCap: |LnkCap: |LnkSta: )`)
	// -v: the bus flags line and the regions unnumbered.
	reLspciV = regexp.MustCompile(`(?m)^\s*(?:Flags: (?:bus master|fast devsel|medium devsel|slow devsel|\d+MHz|IRQ )|Memory at [0-9a-f]+ |I/O ports at [0-9a-f]+ |Capabilities: \[)`)
	// -k: the driver and the modules, with the subsystem, and nothing of -v.
	reLspciK = regexp.MustCompile(`(?m)^\s*(?:Kernel driver in use|Kernel modules): `)
	// -x and more: the config space as hex lines ("00: b3 15 17 10 …").
	reLspciHex = regexp.MustCompile(`(?m)^[0-9a-f]{2,3}: (?:[0-9a-f]{2} ){15}[0-9a-f]{2}\s*$`)
)

// lspciLayout is the source table's lspci command line whose output has
// the text's layout: its ids (-nn names and numbers, -n numbers, or
// names alone), how verbose it is (-vv, -v, -k or one line a device),
// and a hex dump of the config space. A layout the table has no line of
// is filed under the nearest that claims no id the text lacks: -nnv
// under -nnvv, -nk under -nn, -vx under -v. Lines a chat or a form
// joined are read as lspci printed them.
func lspciLayout(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		for _, p := range lspci.Unjoin(l) {
			b.WriteString(p)
			b.WriteByte('\n')
		}
	}
	text = b.String()
	hex := reLspciHex.MatchString(text)
	vv := reLspciVV.MatchString(text)
	v := vv || reLspciV.MatchString(text)
	switch {
	case reLspciNames.MatchString(text):
		switch {
		case vv && hex:
			return "lspci -nnvvvxxxx"
		case v:
			return "lspci -nnvv"
		}
		return "lspci -nn"
	case reLspciNumeric.MatchString(text):
		return "lspci -nvv"
	case vv && hex:
		return "lspci -vvvxxxxx"
	case vv:
		return "lspci -vv"
	case v:
		return "lspci -v"
	case reLspciK.MatchString(text):
		return "lspci -k"
	}
	return "lspci"
}

// section is where the rule's output is filed.
func (r rule) section() *Section {
	if f, ok := strings.CutPrefix(r.line, "cat /"); ok {
		return &Section{Command: r.line, Path: f}
	}
	words := strings.Fields(r.line)
	for i, w := range words {
		if strings.HasPrefix(w, "{") {
			words[i] = "pasted" // ethtool -i: the output does not name its netdev
		}
	}
	c, _, ok := match(words)
	if !ok {
		c, _ = globbed(words)
	}
	return &Section{Command: c.line, Path: c.path}
}
