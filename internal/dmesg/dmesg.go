package dmesg

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/rocekb/rocekb/internal/need"
)

// Event kinds; the same strings as the host record's kernel_log kinds.
const (
	DriverInit      = "driver-init"
	Firmware        = "firmware"
	RoCEEnabled     = "roce-enabled"
	SymbolMismatch  = "symbol-mismatch"
	UnknownSymbol   = "unknown-symbol"
	ProbeFailure    = "probe-failure"
	FirmwareProblem = "firmware-problem"
)

// Event is one classified kernel log line.
type Event struct {
	Kind   string
	Time   string // as printed: "12.345678", a dmesg -T date, an ISO or syslog time
	Module string // who printed it
	Device string // PCI address or device name, when printed
	Errno  *int   // error code of a failure
	Text   string // the line without its timestamp, continuation lines joined
	Line   int    // 1-based line where the message starts
}

// Limits that keep a huge log bounded in memory.
const (
	MaxEvents = 2000 // events kept
	maxText   = 512  // bytes of text kept per event
)

// Modules whose lines can be RDMA-relevant: the providers, their companion
// Ethernet or core drivers (facts: rdma-core kernel-boot rules), the RDMA
// core, and the MLNX_OFED compat layer.
var relevant = map[string]bool{
	"mlx5_core": true, "mlx5_ib": true, "mlx4_core": true, "mlx4_en": true, "mlx4_ib": true, "mlx_compat": true,
	"bnxt_en": true, "bnxt_re": true, "irdma": true, "i40iw": true, "ice": true, "i40e": true,
	"qed": true, "qede": true, "qedr": true, "hns3": true, "hns_roce": true, "hns_roce_hw_v2": true, "hns_roce_hw_v1": true, "hns-roce-hw-v2": true,
	"rdma_rxe": true, "rxe": true, "siw": true, "enic": true, "enic_rdma": true, "usnic_verbs": true,
	"ocrdma": true, "be2net": true, "vmw_pvrdma": true, "vmxnet3": true, "efa": true, "erdma": true, "mana": true, "mana_ib": true,
	"ionic": true, "ionic_rdma": true, "ib_core": true, "ib_uverbs": true, "rdma_cm": true, "rdma_ucm": true, "ib_cm": true, "ib_ipoib": true,
}

// symbolRE marks RDMA-stack symbols, so that a mismatch in any module
// (ksmbd, nv_peer_mem, nvme-rdma …) that links against them is kept.
var rdmaSymbolRE = regexp.MustCompile(`^_*(ib_|rdma_|iw_|uverbs|mlx[45]?_|bnxt|irdma|qed|hns|ice_|roce)`)

var (
	stampRE = regexp.MustCompile(`^\[\s*(\d+\.\d+)\]\s?`)
	// humanRE is dmesg -H: "[Jul29 07:17] …" at each new minute, then
	// deltas "[  +0.553164] …".
	humanRE  = regexp.MustCompile(`^\[((?:[A-Z][a-z]{2}\d{1,2} \d\d:\d\d)|\s*\+\d+\.\d+)\]\s?`)
	ctimeRE  = regexp.MustCompile(`^\[([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\]\s?`)
	isoRE    = regexp.MustCompile(`^(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d[.,\d]*(?:Z|[+-]\d\d:?\d\d)?)\s+`)
	syslogRE = regexp.MustCompile(`^([A-Z][a-z]{2}\s+\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?)\s+`)
	// unixRE is journalctl -o short-unix: seconds since the epoch with
	// microseconds ("%10ld.%06llu", output_timestamp_realtime in
	// systemd's src/shared/logs-show.c), then the host and identifier.
	unixRE = regexp.MustCompile(`^(\d{9,11}\.\d{6}) +`)
	// journalRE is the host and identifier journalctl -o short-monotonic
	// and short-delta write after their "[  123.456789]" stamp (output_short
	// in logs-show.c: " host", " identifier", "[pid]", ": "; no host with
	// --no-hostname). Only "kernel" or an identifier with its pid marks the
	// journal: dmesg prints the message there ("mlx5_core 0000:03:00.0: ",
	// "infiniband mlx5_0: ").
	journalRE = regexp.MustCompile(`^(?:[^\s:\[\]]+ )?(?:kernel|([A-Za-z][\w.@-]*)\[\d+\]): `)
	fullRE    = regexp.MustCompile(`^((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [A-Z]{2,5}| [+-]\d{4})?)\s+`)
	// identRE is a syslog line's host and identifier: "node1 kernel: ",
	// "node1 rdma-ndd[812]: ".
	identRE = regexp.MustCompile(`^\S+ ([^\s:\[\]]+)(?:\[\d+\])?: ?`)
	// pidIdentRE is an unstamped user-space line of such a paste.
	pidIdentRE = regexp.MustCompile(`^([A-Za-z][\w.@-]*)\[\d+\]: `)
	// facilityRE is dmesg -x's "kern  :warn  : ", or the "kern.err: "
	// that a syslog template (rsyslog's %syslogfacility-text%.
	// %syslogseverity-text%) puts before a line's stamp.
	facilityRE = regexp.MustCompile(`^(?:kern|user|mail|daemon|auth|syslog|lpr|news|uucp|cron|authpriv|ftp|local[0-7])(?:\s*:(?:emerg|alert|crit|err|warn|notice|info|debug)\s*|\.(?:emerg|alert|crit|err|error|warning|warn|notice|info|debug)): `)
	disagree   = regexp.MustCompile(`disagrees about version of symbol (\S+)`)
	unknown    = regexp.MustCompile(`Unknown symbol (\S+)(?: \(err (-?\d+)\))?`)
	probe      = regexp.MustCompile(`probe of (\S+) failed with error (-?\d+)|^(\S+) (\S+?):? probe with driver \S+ failed with error (-?\d+)`)
	failedErr  = regexp.MustCompile(`failed with error(?: code)? (-?\d+)`)
	fwLoad     = regexp.MustCompile(`Direct firmware load for (\S+) failed with error (-?\d+)`)
	fwProblem  = regexp.MustCompile(`(?i)can't load firmware|error loading firmware|firmware.{0,40}(too old|mismatch|incompatible|not supported|unsupported|is older)|\bfw\b.{0,40}(too old|mismatch|incompatible)`)
	roceRE     = regexp.MustCompile(`(?i)RoCE ?v?2 enabled|RoCE ?v?1 enabled|RoCE mode`)
	fwVersion  = regexp.MustCompile(`(?i)firmware version:? \S+|\bFW version:? \S+`)
	// probeFailedRE is a probe that gave up: "gdma probe failed", and
	// mlx5 main.c's set_hca_cap steps ("handle_hca_cap failed").
	probeFailedRE = regexp.MustCompile(`(?i)\bprobe failed\b|\b(?:handle_hca_cap\w*|set_hca_ctrl|set_hca_cap) failed\b`)
	registerRE    = regexp.MustCompile(`(?i)(?:\bCouldn't set up InfiniBand P_Key/GID cache|\bdevice registration error (-\d+))\b`)
	setupErrRE    = regexp.MustCompile(`(?i)\b(?:failed|unable|couldn't|cannot) to (?:allocate|init\w*|create|register|set ?up|add)\b.{0,60}\berr(?:or)?\s*[:=]?\s*(-\d+)\b`)
	initRE        = regexp.MustCompile(`(?i)\bdriver\b|^initializing [0-9a-f]{4}:|\binit$`)
)

// compatPrefix starts MLNX_OFED's compat-layer banner.
const compatPrefix = "compat-mlnx-ofed backport"

// fwWords are the words a firmware problem line holds; fwProblem runs
// only on lines with one of them.
var fwWords = []string{"too old", "mismatch", "incompatible", "not supported", "unsupported", "is older", "load firmware", "loading firmware"}

func hasAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

type pending struct {
	time, text string
	ident      string // the syslog identifier of a user-space message; "" for the kernel
	line       int
	set        bool
}

// stamp strips what a log line carries before the message: a dmesg
// stamp (plain, -T, --time-format iso, -r's "<6>" level, -x's
// "kern  :warn  : " facility), a syslog or journal stamp (short,
// short-precise, short-iso, short-iso-precise, short-full, short-unix,
// short-monotonic, short-delta, rsyslog's RFC 3339) with its host and
// identifier, and the kernel's own stamp
// after "kernel:". ident is the syslog identifier when the line names one
// other than the kernel ("rdma-ndd", "nvme"): a user-space message.
func stamp(line string) (t, text, ident string, ok bool) {
	line = trimBlanksRight(line)
	line = stripLevel(line)
	if line == "" {
		return "", line, "", false
	}
	if t, text, ok := dmesgStamp(line); ok {
		text, ident = journalIdent(text)
		return t, text, ident, true
	}
	// pdsh, clush and ansible print each node's lines after its name:
	// "b1360: [14280.445220] mlx5_core …".
	if i := strings.Index(line, ": ["); i > 0 && isWord(line[:i]) {
		if t, text, ok := dmesgStamp(line[i+2:]); ok {
			return t, text, "", true
		}
	}
	// journalctl -o cat with identifiers, or a paste that dropped the
	// stamps: "kernel: mlx5_core …", "kernel: [  5.1] …".
	if rest, ok := strings.CutPrefix(trimBlanksLeft(line), "kernel: "); ok {
		if t, text, ok := dmesgStamp(rest); ok {
			return t, text, "", true
		}
		return "", strings.TrimSpace(rest), "", true
	}
	if end, id1, ok := pidIdentAt(line, 0); ok {
		return "", strings.TrimSpace(line[end:]), line[:id1], true // "multipathd[18578]: …"
	}
	var res []*regexp.Regexp
	switch c := line[0]; {
	case c == '[':
		res = []*regexp.Regexp{stampRE, ctimeRE, humanRE}
	case c >= '0' && c <= '9':
		res = []*regexp.Regexp{isoRE, unixRE}
	case c >= 'A' && c <= 'Z' && len(line) > 4 && isLowerASCII(line[1]) && isLowerASCII(line[2]) && isSpaceRE(line[3]):
		// Both begin with a month's or a day's name and white space:
		// a wrapped message's "CREATE_EQ(0x301) …" or "Failed to …"
		// is neither.
		res = []*regexp.Regexp{syslogRE, fullRE}
	}
	for _, re := range res {
		m := re.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		t, text = strings.TrimSpace(line[m[2]:m[3]]), line[m[1]:]
		// A syslog or journal stamp is followed by the host and the
		// identifier; dmesg's own stamps (and its iso form, whose
		// fraction follows a comma) by the message.
		if re == syslogRE || re == fullRE || re == unixRE || re == isoRE && !strings.Contains(t, ",") {
			if rest, ok := strings.CutPrefix(text, "kernel: "); ok {
				text = rest // no host: "Feb 11 04:24:55  kernel: …"
			} else if h := identRE.FindStringSubmatchIndex(text); h != nil {
				if id := text[h[2]:h[3]]; id != "kernel" {
					ident = id
				}
				text = text[h[1]:]
			}
		}
		text = strings.TrimSpace(text)
		if ident == "" {
			if m2 := stampRE.FindStringSubmatchIndex(text); m2 != nil && re != stampRE {
				text = text[m2[1]:]
			}
		}
		return t, strings.TrimSpace(text), ident, true
	}
	return "", line, "", false
}

// stripLevel drops a leading syslog priority ("<6>", dmesg -r and
// rsyslog's raw form), dmesg -x's "kern  :warn  : " facility and level,
// and a syslog template's "kern.err: ".
func stripLevel(line string) string {
	if len(line) > 2 && line[0] == '<' {
		if end := strings.IndexByte(line, '>'); end > 1 && end <= 4 && isDigits(line[1:end]) {
			line = line[end+1:]
		}
	}
	// facilityRE's names begin with one of these letters: a line that
	// begins with none of them (a stamp, a speaker) skips the pattern.
	if line != "" && strings.IndexByte("acdfklmnsu", line[0]) >= 0 && facilityName(line) {
		if m := facilityRE.FindStringIndex(line); m != nil {
			line = line[m[1]:]
		}
	}
	return line
}

// facilities are the names facilityRE begins with.
var facilities = []string{"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp", "local"}

// facilityName reports whether line begins with one of facilities, as
// every facilityRE match does: other lines that begin with one of their
// letters ("failed with error …" continuing a wrapped message) skip the
// pattern.
func facilityName(line string) bool {
	for _, f := range facilities {
		if strings.HasPrefix(line, f) {
			return true
		}
	}
	return false
}

// journalIdent strips the host and identifier a journal line carries
// after a monotonic stamp; ident is the identifier of a user-space
// message, "" for the kernel's.
func journalIdent(text string) (rest, ident string) {
	// journalHead reads no further than the head a journal line begins
	// with, each form of which ends in ": ".
	end, id0, id1, ok := journalHead(text)
	if !ok {
		return text, ""
	}
	if id0 >= 0 {
		ident = text[id0:id1]
	}
	return strings.TrimSpace(text[end:]), ident
}

// journalHead is journalRE.FindStringSubmatchIndex(s), written out
// because it runs on every stamped line: the end of the match and the
// identifier's bounds (-1 when the line is the kernel's), or !ok.
func journalHead(s string) (end, id0, id1 int, ok bool) {
	// The host, when there is one: every byte up to the first of \s,
	// ':', '[' or ']', which is a space. The pattern tries it first and
	// then the identifier at the start.
	i := 0
	for i < len(s) && !isSpaceRE(s[i]) && s[i] != ':' && s[i] != '[' && s[i] != ']' {
		i++
	}
	if i > 0 && i < len(s) && s[i] == ' ' {
		if end, id0, id1, ok := journalIdentAt(s, i+1); ok {
			return end, id0, id1, true
		}
	}
	return journalIdentAt(s, 0)
}

// journalIdentAt matches "kernel: " or "<identifier>[<pid>]: " at s[i:].
func journalIdentAt(s string, i int) (end, id0, id1 int, ok bool) {
	if strings.HasPrefix(s[i:], "kernel: ") {
		return i + len("kernel: "), -1, -1, true
	}
	if end, id1, ok := pidIdentAt(s, i); ok {
		return end, i, id1, true
	}
	return 0, 0, 0, false
}

// pidIdentAt matches pidIdentRE, "<identifier>[<pid>]: ", at s[i:]: the
// end of the match and of the identifier.
func pidIdentAt(s string, i int) (end, id1 int, ok bool) {
	j := i
	if j >= len(s) || !(s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		return 0, 0, false
	}
	for j++; j < len(s) && (need.IsWordByte(s[j]) || s[j] == '.' || s[j] == '@' || s[j] == '-'); j++ {
	}
	id1 = j
	if j >= len(s) || s[j] != '[' {
		return 0, 0, false
	}
	j++
	d := j
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == d || !strings.HasPrefix(s[j:], "]: ") {
		return 0, 0, false
	}
	return j + len("]: "), id1, true
}

func isLowerASCII(c byte) bool { return c >= 'a' && c <= 'z' }

// trimBlanksRight is strings.TrimRight(s, " \t"), without building the
// cut set for every line.
func trimBlanksRight(s string) string {
	n := len(s)
	for n > 0 && (s[n-1] == ' ' || s[n-1] == '\t') {
		n--
	}
	return s[:n]
}

// trimBlanksLeft is strings.TrimLeft(s, " \t"), without building the cut
// set for every line.
func trimBlanksLeft(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// isSpaceRE reports whether c is in a pattern's \s: [\t\n\f\r ].
func isSpaceRE(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// dmesgStamp strips the common "[   12.345678] " prefix without a
// regular expression.
func dmesgStamp(line string) (t, text string, ok bool) {
	if len(line) < 4 || line[0] != '[' {
		return "", "", false
	}
	end := strings.IndexByte(line, ']')
	if end < 0 {
		return "", "", false
	}
	t = strings.TrimLeft(line[1:end], " ")
	// journalctl -o short-delta: "[  123.456789 <    0.000123 >]", or
	// sixteen spaces where no delta is known (output_timestamp_monotonic
	// in systemd's src/shared/logs-show.c).
	if i := strings.IndexByte(t, ' '); i > 0 {
		if d := strings.TrimSpace(t[i:]); d == "" || d[0] == '<' && d[len(d)-1] == '>' {
			t = t[:i]
		}
	}
	dot := strings.IndexByte(t, '.')
	if dot <= 0 || dot == len(t)-1 || !isDigits(t[:dot]) || !isDigits(t[dot+1:]) {
		return "", "", false
	}
	text = strings.TrimSpace(line[end+1:])
	// CONFIG_PRINTK_CALLER adds the caller: "[  223.28][   T13] …", "[ 3.1][    C0] …".
	if len(text) > 3 && text[0] == '[' {
		if e := strings.IndexByte(text, ']'); e > 2 {
			id := strings.TrimLeft(text[1:e], " ")
			if len(id) > 1 && (id[0] == 'T' || id[0] == 'C') && isDigits(id[1:]) {
				text = strings.TrimSpace(text[e+1:])
			}
		}
	}
	return t, text, true
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// event classifies one message, whose literals it reads from m (reset to
// the message): the speakers kept are the named modules, any driver
// speaking about a PCI function, the RDMA core ("infiniband
// <dev>:"), firmware and ULP speakers, and storage speakers whose message
// is about their RDMA transport. Its device is the PCI function, else the
// RDMA device the message names, else the device of a class prefix.
func event(p pending, sp speech, m *msg) (Event, bool) {
	text := p.text
	if text == "" {
		return Event{}, false
	}
	module, device, rest, kind := sp.module, sp.device, sp.rest, sp.kind
	named := ""
	// IPoIB prints through its interface: "mlx5_0, 1: ipoib_intf_alloc failed -11".
	if module == "" && m.has(wIPoIB) && strings.Contains(text, "ipoib") {
		module, kind = "ib_ipoib", kindOf("ib_ipoib")
	}
	if module == "" || device == "" && kind == 0 {
		if cls, name, r, ok := classDeviceAt(text, sp.colon); ok {
			module, named, rest = cls, name, r
			// An auxiliary driver names itself "irdma.gen_2", its device
			// "ice.roce.1".
			if j := strings.IndexByte(module, '.'); j > 0 && kindOf(module[:j])&relevantKind != 0 {
				module = module[:j]
			}
			// "scsi host5: ib_srp: …": the ULP speaks through its host.
			if j := strings.Index(r, ": "); j > 0 && kindOf(r[:j])&ulpKind != 0 {
				module, rest = r[:j], r[j+2:]
			}
			kind = kindOf(module)
		}
	}
	pt := m.part(rest)
	ulp := kind&ulpKind != 0 || ulpOnRDMA(module, pt)
	rdma := kind&(relevantKind|broadKind) != 0 || ulp
	rel := rdma || device != ""
	// Lines of the RDMA core that name no module ("__ib_cache_gid_add:
	// unable to add gid …", before 5.x "ib_query_port failed (-110) for
	// mlx4_0") are kept by what they say.
	if !rel && (pt.has(wGID) && gidRE.MatchString(rest) || isCoreQuery(pt)) {
		rel, rdma = true, true
	}
	// vmw_pvrdma's MR wordings are its own: a line that lost the module
	// before its PCI address ("0000:0b:00.1: could not get umem for mem
	// region", as pasted) is still the provider's.
	if !rdma && isMRFailure(pt) {
		rel, rdma = true, true
		if device == "" {
			device = mrDevice(rest)
		}
	}
	// Most of a kernel log is about other subsystems: skip those lines
	// before trying any pattern.
	isCompat := len(text) >= len(compatPrefix) && strings.EqualFold(text[:len(compatPrefix)], compatPrefix)
	symbol := m.has(wSymbol) && strings.Contains(text, "symbol")
	if !rel && !symbol && !isCompat {
		return Event{}, false
	}
	ev := Event{Time: p.time, Module: module, Device: device, Line: p.line}
	if rel && !symbol {
		k := ""
		if ulp && kind&ulpKind == 0 {
			if ulpFailRE.MatchString(rest) {
				k = ULPFailure
			}
		} else {
			k = newKind(module, kind, pt, rdma)
		}
		if k != "" {
			ev.Kind = k
			ev.Text = cut(text)
			ev.Device = eventDevice(device, named, text, module, ulp)
			return ev, true
		}
	}
	switch {
	case isCompat:
		ev.Kind, ev.Module = DriverInit, "mlx_compat"
	case m.has(wDisagrees) && strings.Contains(text, "disagrees about version of symbol"):
		sm := disagree.FindStringSubmatch(text)
		if sm == nil || !rel && !rdmaSymbolRE.MatchString(sm[1]) {
			return Event{}, false
		}
		ev.Kind = SymbolMismatch
	case m.has(wUnknownSymbol) && strings.Contains(text, "Unknown symbol "):
		sm := unknown.FindStringSubmatch(text)
		if sm == nil || !rel && !rdmaSymbolRE.MatchString(sm[1]) {
			return Event{}, false
		}
		ev.Kind, ev.Errno = UnknownSymbol, atoi(sm[2])
	case !rel:
		return Event{}, false
	case m.hasAny(probeIDs) && isProbeFailure(text):
		// "mlx5_core: probe of 0000:01:00.0 failed with error -22", or the
		// driver core's newer "irdma.gen_2 ice.roce.1: probe with driver
		// irdma.gen_2 failed with error -110" (the device second).
		dev, errno, _ := probeFailure(text)
		ev.Kind, ev.Device, ev.Errno = ProbeFailure, dev, atoi(errno)
	case m.has(wDirectFirmware) && strings.Contains(text, "Direct firmware load") && fwLoad.MatchString(text):
		ev.Kind, ev.Errno = FirmwareProblem, atoi(fwLoad.FindStringSubmatch(text)[2])
	case pt.hasAny(fwIDs) && fwProblem.MatchString(rest):
		ev.Kind = FirmwareProblem
	case pt.has(wRoCE) && roceRE.MatchString(rest):
		ev.Kind = RoCEEnabled
	case pt.has(wFailedWithError) && failedErrno(rest) != "":
		ev.Kind, ev.Errno = ProbeFailure, atoi(failedErrno(rest))
	case pt.hasAny(registerIDs) && registerRE.MatchString(rest):
		// The RDMA device was not registered with the RDMA core, so it
		// is missing: ib_core device.c "Couldn't set up InfiniBand
		// P_Key/GID cache" (its port query failed, the line before), siw
		// siw_main.c "siw: device registration error %d".
		ev.Kind, ev.Errno = ProbeFailure, atoi(registerRE.FindStringSubmatch(rest)[1])
	case pt.hasAny(probeFailedIDs) && probeFailedRE.MatchString(rest):
		// "mana 7870:00:00.0: gdma probe failed", "mlx5_core
		// 0000:01:00.0: handle_hca_cap failed"
		ev.Kind = ProbeFailure
	case kind&relevantKind != 0 && pt.has(wErr) && setupErrRE.MatchString(rest):
		// A provider that could not set itself up, with the errno:
		// "rdma_rxe: failed to allocate crc algorithm err:-2".
		ev.Kind, ev.Errno = ProbeFailure, atoi(setupErrRE.FindStringSubmatch(rest)[1])
	case pt.has(wVersion) && fwVersion.MatchString(rest):
		ev.Kind = Firmware
	case (pt.hasAny(initIDs) || pt.hasSuffixFold("init")) && initRE.MatchString(rest):
		ev.Kind = DriverInit
	default:
		return Event{}, false
	}
	if ev.Device == "" && (named != "" && isRDMAName(named) || module == "infiniband") {
		ev.Device = named
	}
	ev.Text = cut(text)
	return ev, true
}

// The literals event tests a message for before its patterns, in lower
// case.
var (
	fwIDs          = lits(fwWords...)
	probeIDs       = lits("probe of ", "probe with driver ")
	registerIDs    = lits("regist", "p_key/gid cache")
	probeFailedIDs = lits("probe failed", "hca_c")
	initIDs        = lits("driver", "initializ")

	wIPoIB          = lit("ipoib")
	wSymbol         = lit("symbol")
	wDisagrees      = lit("disagrees about version of symbol")
	wUnknownSymbol  = lit("unknown symbol ")
	wDirectFirmware = lit("direct firmware load")
	wErr            = lit("err")
	wVersion        = lit("version")
)

// eventDevice names what a failure is about: the PCI function the line
// names; for a ULP the RDMA device it failed on when the line names one
// (never the ULP's own controller or host); else an RDMA device the line
// names; else the class device ("infiniband mlx5_0", "nvme nvme0").
func eventDevice(device, named, text, module string, ulp bool) string {
	if device != "" {
		return device
	}
	if named != "" && isRDMAName(named) {
		return named
	}
	if d := namedDevice(strings.TrimPrefix(text, module)); d != "" {
		return d
	}
	if ulp {
		return ""
	}
	return named
}

// mrDevice is the device of a memory registration failure that names no
// speaker: the PCI function it starts with ("0000:0b:00.1: could not get
// umem …"), else the RDMA device among its colon-separated fields
// (MLNX_OFED's "mlx5_warn:mlx5_0:mlx5_ib_reg_user_mr:1418:(pid 23265): …").
func mrDevice(rest string) string {
	if i := strings.Index(rest, ": "); i > 0 && isBDF(rest[:i]) {
		return rest[:i]
	}
	head, _, _ := strings.Cut(rest, ": ")
	for f := range strings.SplitSeq(head, ":") {
		if isRDMAName(f) {
			return f
		}
	}
	return ""
}

func cut(text string) string {
	if len(text) > maxText {
		return text[:maxText]
	}
	return text
}

// isProbeFailure is probe.MatchString(s).
func isProbeFailure(s string) bool {
	if !strings.Contains(s, "probe of ") && !strings.Contains(s, "probe with driver ") {
		return false
	}
	_, _, ok := probeFailure(s)
	return ok
}

// probeFailure is probe.FindStringSubmatch(s), written out because a
// driver's lines are tried against it twice: the device (m[1], else m[4]
// without a trailing ':') and the errno of the pattern's leftmost match.
// At the start of s the pattern tries "probe of", then the driver core's
// wording; further on, only "probe of".
func probeFailure(s string) (device, errno string, ok bool) {
	const of = "probe of "
	if strings.HasPrefix(s, of) {
		if device, errno, ok := probeOfAt(s[len(of):]); ok {
			return device, errno, true
		}
	}
	if device, errno, ok := probeWithDriver(s); ok {
		return strings.TrimSuffix(device, ":"), errno, true
	}
	for from := 1; from < len(s); {
		i := strings.Index(s[from:], of)
		if i < 0 {
			break
		}
		p := from + i
		from = p + 1
		if device, errno, ok := probeOfAt(s[p+len(of):]); ok {
			return device, errno, true
		}
	}
	return "", "", false
}

// probeOfAt matches `(\S+) failed with error (-?\d+)` at the start of s.
func probeOfAt(s string) (device, errno string, ok bool) {
	k := nonSpaceRun(s)
	if k == 0 {
		return "", "", false
	}
	rest, ok := strings.CutPrefix(s[k:], " failed with error ")
	if !ok {
		return "", "", false
	}
	if errno = errnoPrefix(rest); errno == "" {
		return "", "", false
	}
	return s[:k], errno, true
}

// probeWithDriver matches `^(\S+) (\S+?):? probe with driver \S+ failed
// with error (-?\d+)`, returning the second group and the errno. The lazy
// group leaves out one ':' that ends the word, when the word is more.
func probeWithDriver(s string) (device, errno string, ok bool) {
	k := nonSpaceRun(s)
	if k == 0 || k == len(s) || s[k] != ' ' {
		return "", "", false
	}
	s = s[k+1:]
	k = nonSpaceRun(s)
	if k == 0 {
		return "", "", false
	}
	device = s[:k]
	if k >= 2 && device[k-1] == ':' {
		device = device[:k-1]
	}
	rest, ok := strings.CutPrefix(s[k:], " probe with driver ")
	if !ok {
		return "", "", false
	}
	k = nonSpaceRun(rest)
	if k == 0 {
		return "", "", false
	}
	rest, ok = strings.CutPrefix(rest[k:], " failed with error ")
	if !ok {
		return "", "", false
	}
	if errno = errnoPrefix(rest); errno == "" {
		return "", "", false
	}
	return device, errno, true
}

// failedErrno is failedErr.FindStringSubmatch(s)[1], the errno of its
// leftmost match, or "" when there is none; written out because a
// provider's failures are tried against it.
func failedErrno(s string) string {
	const failed = "failed with error"
	for from := 0; ; {
		i := strings.Index(s[from:], failed)
		if i < 0 {
			return ""
		}
		after := s[from+i+len(failed):]
		from += i + 1
		// (?: code)? is greedy: with the word first, then without.
		if rest, ok := strings.CutPrefix(after, " code "); ok {
			if e := errnoPrefix(rest); e != "" {
				return e
			}
		}
		if rest, ok := strings.CutPrefix(after, " "); ok {
			if e := errnoPrefix(rest); e != "" {
				return e
			}
		}
	}
}

// nonSpaceRun is the length of the \S+ run s begins with.
func nonSpaceRun(s string) int {
	k := 0
	for k < len(s) && !isSpaceRE(s[k]) {
		k++
	}
	return k
}

// errnoPrefix is the -?\d+ s begins with, or "".
func errnoPrefix(s string) string {
	j := 0
	if j < len(s) && s[j] == '-' {
		j++
	}
	d := j
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == d {
		return ""
	}
	return s[:j]
}

// spacePrefixed are the modules whose pr_fmt puts a space, not ": ",
// after their name: ib_srpt's is DRV_NAME " " fmt
// (drivers/infiniband/ulp/srpt/ib_srpt.c), so its lines read
// "ib_srpt srpt_add_one(mlx5_0) failed." and "ib_srpt ib_cm_listen()
// failed: -22 (cm_id state = 0)".
var spacePrefixed = map[string]bool{"ib_srpt": true}

// speech is what speaker returns, read once per message, what the
// module is (kindOf), and where the first ": " of the text is (-1 when
// nowhere), which classDevice and nameAfterAddress also begin with.
type speech struct {
	module, device, rest string
	kind                 uint8
	colon                int
}

func speakerOf(text string) speech {
	i := strings.Index(text, ": ")
	m, d, r := speakerAt(text, i)
	return speech{m, d, r, kindOf(m), i}
}

// What a module is, as relevant, ulps and broadSpeakers list it: one
// lookup tells all three.
const (
	relevantKind uint8 = 1 << iota
	ulpKind
	broadKind
)

var moduleKinds = func() map[string]uint8 {
	k := map[string]uint8{}
	for m := range relevant {
		k[m] |= relevantKind
	}
	for m := range ulps {
		k[m] |= ulpKind
	}
	for m := range broadSpeakers {
		k[m] |= broadKind
	}
	return k
}()

// moduleShapes has bit n of entry c set when a module of moduleKinds
// begins with the byte c and is n bytes long (n < 64): most speakers of a
// log are none of them, and are told so without a map lookup.
var moduleShapes = func() (t [256]uint64) {
	for m := range moduleKinds {
		if len(m) >= 64 {
			panic("dmesg: module name " + m + " is too long for moduleShapes")
		}
		t[m[0]] |= 1 << len(m)
	}
	return t
}()

// kindOf is what the module is: relevantKind, ulpKind and broadKind, or 0.
func kindOf(module string) uint8 {
	if module == "" || len(module) >= 64 || moduleShapes[module[0]]&(1<<len(module)) == 0 {
		return 0
	}
	return moduleKinds[module]
}

// speaker finds the module and device a kernel message names:
// "mlx5_core 0000:0b:00.0: msg", "enic 0000:62:00.1 eth1: enic_rdma: msg",
// "mlx4_en: 0000:41:00.0: msg" or "bnxt_re: msg". It is written without
// regular expressions because it runs on every line.
func speaker(text string) (module, device, rest string) {
	return speakerAt(text, strings.Index(text, ": "))
}

// speakerAt is speaker given i, the index of the first ": " in text (-1
// when none).
func speakerAt(text string, i int) (module, device, rest string) {
	// mlx4_ib's own prefix: "<mlx4_ib> create_pv_sqp: Couldn't …".
	if len(text) > 2 && text[0] == '<' {
		if j := strings.IndexByte(text, '>'); j > 1 && isWord(text[1:j]) {
			return text[1:j], "", strings.TrimSpace(text[j+1:])
		}
	}
	if dev, rest, ok := qedPrefix(text); ok {
		return "qedr", dev, rest
	}
	if j := strings.IndexByte(text, ' '); j > 0 && spacePrefixed[text[:j]] {
		return text[:j], "", strings.TrimSpace(text[j+1:])
	}
	if i <= 0 {
		return "", "", text
	}
	head, rest := text[:i], text[i+2:]
	if isMlx5Func(head) {
		// mlx5_core and mlx5_ib print "func:line:(pid N): " after the
		// device name, which some kernels leave empty.
		return "mlx5_core", "", rest
	}
	if drv, bdf, ok := pciHead(netdevHead(head)); ok {
		module, device = drv, strings.ToLower(bdf)
		if j := strings.Index(rest, ": "); j > 0 && kindOf(rest[:j])&relevantKind != 0 {
			module, rest = rest[:j], rest[j+2:]
		}
		return module, device, rest
	}
	if !isWord(head) {
		return "", "", text
	}
	if j := strings.IndexAny(rest, ": "); j > 0 && isBDF(rest[:j]) {
		device = strings.ToLower(rest[:j])
	}
	return head, device, rest
}

// pciHead reads "<driver> <BDF>" or "<driver> <BDF> <netdev>": the
// driver a word, one space between the fields, and the netdev any text
// without white space (unicode.IsSpace, as strings.Fields splits on).
func pciHead(h string) (driver, bdf string, ok bool) {
	j := strings.IndexByte(h, ' ')
	if j < 0 || !isWord(h[:j]) {
		return "", "", false
	}
	r := h[j+1:]
	if len(r) < 12 || !isBDF(r[:12]) {
		return "", "", false
	}
	if len(r) > 12 {
		netdev, ok := strings.CutPrefix(r[12:], " ")
		if !ok || netdev == "" || strings.IndexFunc(netdev, unicode.IsSpace) >= 0 {
			return "", "", false
		}
	}
	return h[:j], r[:12], true
}

// netdevStates are what netdev_printk prints after the name of a netdev
// that is not registered (netdev_reg_state, include/linux/netdevice.h):
// "bnxt_en 0000:3b:00.0 (unnamed net_device) (uninitialized): …" while a
// driver probes, before its netdev has a name.
var netdevStates = []string{" (uninitialized)", " (unregistering)", " (unregistered)", " (released)", " (dummy)", " (unknown)"}

// netdevHead writes the head of a netdev_printk message with an unnamed or
// unregistered netdev as one of a registered netdev: netdev_name's
// "(unnamed net_device)" one word, the registration state dropped.
func netdevHead(head string) string {
	if !strings.HasSuffix(head, ")") {
		return head
	}
	for _, st := range netdevStates {
		if h, ok := strings.CutSuffix(head, st); ok {
			head = h
			break
		}
	}
	return strings.Replace(head, " (unnamed net_device)", " unnamed_net_device", 1)
}

// qedPrefix reads the prefix of qed's DP_ERR, DP_NOTICE and DP_INFO
// ("[%s:%d(%s)]" fmt: function, line and device name, in
// include/linux/qed/qed_if.h), which qedr prints with its RDMA device:
// "[qedr_poll_cq_req:3816(qedr0)]Error: POLL CQ with …". Only an RDMA
// device name counts: bnx2x prints the same prefix with its netdev.
func qedPrefix(text string) (dev, rest string, ok bool) {
	if len(text) < 8 || text[0] != '[' {
		return "", "", false
	}
	end := strings.IndexByte(text, ']')
	if end < 0 || !strings.HasSuffix(text[:end], ")") {
		return "", "", false
	}
	open := strings.LastIndexByte(text[:end], '(')
	if open < 0 {
		return "", "", false
	}
	fn, line, ok := strings.Cut(text[1:open], ":")
	dev = text[open+1 : end-1]
	if !ok || !isWord(fn) || !isDigits(line) || !strings.HasPrefix(dev, "qedr") || !isRDMAName(dev) {
		return "", "", false
	}
	return dev, strings.TrimSpace(text[end+1:]), true
}

// isMlx5Func reports whether a message head is mlx5's
// "func:line:(pid N)" with no device before it:
// "mlx5_cmd_check:810:(pid 923941)".
func isMlx5Func(head string) bool {
	if head == "" || head[len(head)-1] != ')' {
		return false
	}
	fn, rest, ok := strings.Cut(head, ":")
	if !ok || !isWord(fn) {
		return false
	}
	line, pid, ok := strings.Cut(rest, ":(pid ")
	return ok && isDigits(line) && strings.HasSuffix(pid, ")") && isDigits(pid[:len(pid)-1])
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	// Bytes, not runes: a byte of a longer rune, or of none, is outside
	// the set as the rune is.
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// isBDF matches dddd:bb:dd.f with hex digits.
func isBDF(s string) bool {
	if len(s) != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.' || s[11] < '0' || s[11] > '7' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func atoi(s string) *int {
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return &n
}
