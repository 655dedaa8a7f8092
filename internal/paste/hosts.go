package paste

import (
	"fmt"
	"regexp"
	"strings"
)

// Part is the lines a paste gives of one host.
type Part struct {
	// Host is the host as the paste names it ("node1", the first
	// spelling seen of it), or "" for the lines before any name.
	Host string
	// By says how the paste named it: "prompt", "parallel shell",
	// "ansible", "tail header", "syslog" or "heading".
	By    string
	Text  []byte
	Lines []int // the paste's line number (1-based) of each line of Text
	// At is the paste's line that first names the host (0 for Host "").
	At int
}

// Hosts splits a paste by the host each of its lines came from, where the
// paste says so: a shell prompt naming its host (user@host:~$, [user@host
// dir]#, SUSE's host:~ #) names the host of the lines after it, until a
// prompt naming another; a parallel shell's "node: " prefix (pdsh, clush,
// xdsh; see Nodes) names the host of its line, and is dropped; an Ansible
// ad-hoc header ("node1 | CHANGED | rc=0 >>") and a "==> node1 <==" header
// of tail or head name the host of the lines after them; and a syslog
// line's host field ("Dec  3 10:00:01 node1 kernel: …") names its line's
// host when the paste's syslog lines name two hosts or more (one name there
// is the host's own, however its prompt spells it); and a heading (a
// markdown heading, a line in bold, a comment line) naming a host names
// the host of the lines after it, when the paste's headings name two hosts
// or more (see headingHost); a heading naming none ends the host a heading
// named. A host is known by its short name, case folded: node1 and
// node1.example.com are one host.
//
// A bare command line that starts a block (at the top, after a blank line
// or a code fence) ends the host a prompt named: the paste does not say
// where it ran ("ibstat" then its output, pasted from another node).
//
// Each line goes to exactly one part. Lines before any host is named form
// the part of host "", first; the named hosts follow in the order the paste
// first names them. A paste that names one host or none is one part holding
// every line as it was.
func Hosts(text []byte) []Part {
	lines := strings.Split(string(text), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	nodes := Nodes(text)
	isNode := map[string]bool{}
	for _, n := range nodes {
		isNode[n] = true
	}
	syslogHosts := map[string]bool{}
	for _, l := range lines {
		if h, ok := syslogHost(l); ok {
			syslogHosts[hostKey(h)] = true
		}
	}
	splitSyslog := len(syslogHosts) > 1
	headingHosts := map[string]bool{}
	for _, l := range lines {
		if h, ok := headingHost(unquote(strings.TrimRight(l, "\r"))); ok {
			headingHosts[hostKey(h)] = true
		}
	}
	byHeading := len(headingHosts) > 1

	var order []*hostPart
	byKey := map[string]*hostPart{}
	get := func(host, by string, at int) *hostPart {
		k := hostKey(host)
		if p := byKey[k]; p != nil {
			return p
		}
		p := &hostPart{Part: Part{Host: host, By: by, At: at}}
		byKey[k] = p
		order = append(order, p)
		return p
	}
	cur := get("", "", 0)
	escaped := false
	top := true // at the paste's start, after a blank line or a code fence
	for i, raw := range lines {
		n := i + 1
		line := strings.TrimRight(raw, "\r")
		if node, rest, ok := nodeLine(line); ok && isNode[node] {
			get(node, "parallel shell", n).add(rest, n)
			continue
		}
		if splitSyslog {
			if h, ok := syslogHost(line); ok {
				get(h, "syslog", n).add(raw, n)
				continue
			}
		}
		plain := unquote(line)
		if escaped = escaped || escapedPrompt.MatchString(plain); escaped {
			plain = markdownUnescape.Replace(plain)
		}
		if byHeading {
			if h, ok := headingHost(plain); ok {
				cur = get(h, "heading", n)
				cur.add(raw, n)
				top = true
				continue
			}
			if cur.By == "heading" && endsHeading.MatchString(plain) {
				// A heading that names no host ("### Full device
				// info") ends the host the heading before named. Not
				// a "# " line: that is a root prompt as often.
				cur = get("", "", 0)
			}
		}
		if h, by, ok := namesHost(plain); ok {
			cur = get(h, by, n)
			if by != "prompt" {
				// The header is no line of an output, but a line of
				// the host's, kept with them.
				cur.add(raw, n)
				top = true
				continue
			}
		} else if top && cur.Host != "" && prompt.FindStringIndex(plain) == nil {
			// A bare command line where a block starts ("ibstat" after
			// a blank line or a code fence): whose output follows is
			// not said; the host a prompt named ran the lines before.
			if _, ok := commandLine(plain, true); ok {
				cur = get("", "", 0)
			}
		}
		cur.add(raw, n)
		top = strings.TrimSpace(plain) == "" || fence.MatchString(plain)
	}
	var out []Part
	for _, p := range order {
		if len(p.Lines) == 0 {
			continue
		}
		p.Text = []byte(p.b.String())
		out = append(out, p.Part)
	}
	if len(out) <= 1 || (len(out) == 2 && out[0].Host == "") {
		// One host, or none: every line as it was, as one part. Only a
		// parallel shell's prefix of its one node is dropped.
		if len(nodes) == 1 {
			text = StripNode(text, nodes[0])
		}
		all := make([]int, len(lines))
		for i := range all {
			all[i] = i + 1
		}
		one := Part{Text: text, Lines: all}
		if len(out) > 0 && out[len(out)-1].Host != "" {
			o := out[len(out)-1]
			one.Host, one.By, one.At = o.Host, o.By, o.At
		}
		return []Part{one}
	}
	return out
}

// hostPart is a Part being filled.
type hostPart struct {
	Part
	b strings.Builder
}

// add appends one line of the paste, numbered n.
func (p *hostPart) add(line string, n int) {
	p.b.WriteString(line)
	p.b.WriteByte('\n')
	p.Lines = append(p.Lines, n)
}

// hostKey is how a host is known: its short name, case folded.
func hostKey(h string) string {
	h, _, _ = strings.Cut(strings.ToLower(h), ".")
	return h
}

var (
	// promptHost finds the host in a prompt: user@host, or SUSE's
	// root prompt "host:~ # " (bash.bashrc's "\h:\w # ").
	promptHost = regexp.MustCompile(`@([A-Za-z0-9][\w.-]*)|^\s*([A-Za-z][\w.-]*):[~/][^\s$#>]*\s#`)
	// ansibleHeader is the line Ansible's ad-hoc command and shell
	// modules print before a host's output: "node1 | CHANGED | rc=0 >>"
	// (also SUCCESS, FAILED, and FAILED! without rc).
	ansibleHeader = regexp.MustCompile(`^([A-Za-z0-9][\w.-]*) \| (?:CHANGED|SUCCESS|FAILED!?)(?: \| rc=-?\d+)? >>\s*$`)
	// tailHeader is the header tail and head print before each file
	// when given several: "==> node1 <==".
	tailHeader = regexp.MustCompile(`^==> (.+) <==\s*$`)
	// syslogLine is a syslog or journal line's stamp, host and tag:
	// "Dec  3 10:00:01 node1 kernel: …", "2024-05-01T10:00:01.123+00:00
	// node1 kernel: …", "Dec 03 10:00:01 node1 NetworkManager[812]: …".
	syslogLine = regexp.MustCompile(`^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S*) ([A-Za-z0-9][\w.-]*) (?:kernel|[\w.-]+\[\d+\]):`)
	// hostFile is a name a tail header gives that can be a host: one
	// word, no folder, its extension of a saved output dropped.
	hostFile = regexp.MustCompile(`^([A-Za-z][\w-]*(?:\.[\w-]+)*?)(?:\.(?:txt|log|out))?$`)
)

var (
	// heading is a line that titles what follows: a markdown heading
	// ("### text"), a line wholly in bold ("**text**", "**text:**"), or
	// a shell comment in a code block ("# node01: RoCE 链路检查"), which
	// reads as a level-one heading. Its text is the first group that
	// matched.
	heading = regexp.MustCompile(`^\s*(?:#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?|\*\*([^*]+?):?\*\*:?)\s*$`)
	// Forms of a heading's text that name a host, each seen in real
	// pastes: a command in code on a host ("`ibstat mlx5_0` on c1",
	// paste/mlx5-bf3-b3220-…); a label ("host: node1", "node = gpu2");
	// a host name before a colon and a title ("node01: RoCE 链路检查",
	// paste/hns-kunpeng-two-nodes-…); a host name alone ("node1"). A
	// name must be a word with a digit in its last part (node01, c1,
	// gpu-2): a title word ("Hardware", "Setup") is none. A trailing
	// note in parentheses is dropped first ("… on c2 (identical symptom)",
	// headingNote).
	headingCodeOn = regexp.MustCompile("^`[^`]+`\\s+on\\s+([A-Za-z][\\w.-]*\\d)$")
	headingLabel  = regexp.MustCompile(`(?i)^(?:host|hostname|node|server)\s*[:=：]\s*([A-Za-z][\w.-]*\d)$`)
	headingTitled = regexp.MustCompile(`^([A-Za-z][A-Za-z-]*\d+)\s*[:：]\s*\S`)
	headingAlone  = regexp.MustCompile(`^([A-Za-z][A-Za-z-]*\d+)$`)
	// endsHeading is a heading of level two or more, or a line in bold.
	endsHeading = regexp.MustCompile(`^\s*(?:#{2,6}[ \t]+\S|\*\*[^*]+\*\*:?\s*$)`)
)

// headingHost reports whether a line is a heading that names a host (see
// heading and its forms). A name that is a network interface's or an
// RDMA device's (eth0, ib1, bond0, mlx5_0) is no host: pastes head each
// interface's output with its name.
func headingHost(line string) (string, bool) {
	m := heading.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	text := strings.TrimSpace(m[1] + m[2])
	text = headingNote.ReplaceAllString(text, "")
	for _, re := range []*regexp.Regexp{headingCodeOn, headingLabel, headingTitled, headingAlone} {
		if h := re.FindStringSubmatch(text); h != nil && !interfaceName.MatchString(h[1]) && !titleWord.MatchString(h[1]) {
			return h[1], true
		}
	}
	return "", false
}

// interfaceName is a kernel network interface's name of the old scheme,
// which a host name of the same shape would be mistaken for: eth0, ib1,
// bond0, em1, wlan0, p1p1 (biosdevname), and the RDMA devices'.
var interfaceName = regexp.MustCompile(`^(?:eth|ib|bond|team|em|wlan|br|veth|tap|tun|vlan|lo|p\d+p|mlx[45]_|hns_|rxe|siw|irdma|bnxt_re|qedr|efa_)\d*$`)

// titleWord is a numbered title's word ("Step1: install", "Part2"),
// which a heading names as often as a host.
var titleWord = regexp.MustCompile(`(?i)^(?:step|part|section|chapter|case|test|example|figure|table|option|method|phase|stage|round|attempt|issue|question|note|version|rev|v)\d+$`)

// namesHost reports whether a line names the host of the lines after it:
// a prompt naming its host, an Ansible header or a tail header naming one
// word. It says how.
func namesHost(line string) (host, by string, ok bool) {
	if m := ansibleHeader.FindStringSubmatch(line); m != nil {
		return m[1], "ansible", true
	}
	if m := tailHeader.FindStringSubmatch(line); m != nil {
		if f := hostFile.FindStringSubmatch(strings.TrimSpace(m[1])); f != nil && !binaries[f[1]] {
			return f[1], "tail header", true
		}
		return "", "", false
	}
	loc := prompt.FindStringIndex(line)
	if loc == nil {
		return "", "", false
	}
	m := promptHost.FindStringSubmatch(line[:loc[1]])
	switch {
	case m == nil:
		return "", "", false
	case m[1] != "":
		return m[1], "prompt", true
	default:
		return m[2], "prompt", true
	}
}

// syslogHost is the host field of a syslog or journal line.
func syslogHost(line string) (string, bool) {
	m := syslogLine.FindStringSubmatch(strings.TrimLeft(line, " \t"))
	if m == nil {
		return "", false
	}
	return m[1], true
}

var (
	// devinfoDevice and devinfoGUID are ibv_devinfo's device and node
	// GUID lines; ibstatCA and ibstatGUID ibstat's.
	devinfoDevice = regexp.MustCompile(`^\s*hca_id:\s*(\S+)`)
	devinfoGUID   = regexp.MustCompile(`^\s*node_guid:\s*([0-9a-fA-F:]+)\s*$`)
	ibstatCA      = regexp.MustCompile(`^\s*CA '([^']+)'`)
	ibstatGUID    = regexp.MustCompile(`^\s*Node GUID:\s*(?:0x)?([0-9a-fA-F]+)\s*$`)
	// gidsHeader is show_gids's header; gidsRow one of its rows (device,
	// port, index, GID).
	gidsHeader = regexp.MustCompile(`^\s*DEV\s+PORT\s+INDEX\s+GID\b`)
	gidsRow    = regexp.MustCompile(`^\s*(\S+)\s+(\d+)\s+(\d+)\s+([0-9a-fA-F]{4}(?::[0-9a-fA-F]{4}){7})\b`)
	// unameHost is the host name uname -a prints after the kernel's name.
	unameHost = regexp.MustCompile(`^\s*Linux ([A-Za-z0-9][\w.-]*) \d+\.\d+\S* #`)
)

// SeveralHosts lists what in a paste says it may hold more than one host
// where it does not say which lines are whose: an RDMA device that
// ibv_devinfo or ibstat gives two different node GUIDs (a device's GUID is
// burnt into its adapter; two are two adapters under one name, as on two
// hosts), a port that two show_gids tables list with no GID row in
// common (one GID table printed twice shares its rows), or uname -a
// printing two host names. Nothing is named but the
// device: a record is shared, and GUIDs and host names are the host's.
func SeveralHosts(text []byte) []string {
	guids := map[string]map[string]bool{}
	var devs []string
	unames := map[string]bool{}
	dev := ""
	table := 0                                   // show_gids tables seen
	gids := map[string]map[int]map[string]bool{} // port → table → its rows
	var ports []string
	for _, l := range strings.Split(string(text), "\n") {
		l = unquote(strings.TrimRight(l, "\r"))
		if gidsHeader.MatchString(l) {
			table++
			continue
		}
		if m := gidsRow.FindStringSubmatch(l); m != nil && table > 0 {
			port := m[1] + " port " + m[2]
			if gids[port] == nil {
				gids[port] = map[int]map[string]bool{}
				ports = append(ports, port)
			}
			if gids[port][table] == nil {
				gids[port][table] = map[string]bool{}
			}
			gids[port][table][m[3]+" "+strings.ToLower(m[4])] = true
			continue
		}
		if m := devinfoDevice.FindStringSubmatch(l); m != nil {
			dev = m[1]
			continue
		}
		if m := ibstatCA.FindStringSubmatch(l); m != nil {
			dev = m[1]
			continue
		}
		g := ""
		if m := devinfoGUID.FindStringSubmatch(l); m != nil {
			g = strings.ReplaceAll(m[1], ":", "")
		} else if m := ibstatGUID.FindStringSubmatch(l); m != nil {
			g = m[1]
		}
		if g != "" && dev != "" {
			g = strings.ToLower(strings.TrimLeft(g, "0"))
			if guids[dev] == nil {
				guids[dev] = map[string]bool{}
				devs = append(devs, dev)
			}
			guids[dev][g] = true
			dev = ""
		}
		if m := unameHost.FindStringSubmatch(l); m != nil {
			unames[hostKey(m[1])] = true
		}
	}
	var out []string
	for _, d := range devs {
		if n := len(guids[d]); n > 1 {
			out = append(out, fmt.Sprintf("the paste may hold several hosts: %s is given %d different node GUIDs", d, n))
		}
	}
	for _, p := range ports {
		if disjointTables(gids[p]) {
			out = append(out, fmt.Sprintf("the paste may hold several hosts: two show_gids tables list %s with no GID in common", p))
		}
	}
	if len(unames) > 1 {
		out = append(out, fmt.Sprintf("the paste may hold several hosts: uname -a names %d different hosts", len(unames)))
	}
	return out
}

// disjointTables reports whether two of a port's show_gids tables share
// no row.
func disjointTables(tables map[int]map[string]bool) bool {
	var ts []map[string]bool
	for _, t := range tables {
		ts = append(ts, t)
	}
	for i := range ts {
		for j := i + 1; j < len(ts); j++ {
			common := false
			for r := range ts[i] {
				if ts[j][r] {
					common = true
					break
				}
			}
			if !common {
				return true
			}
		}
	}
	return false
}
