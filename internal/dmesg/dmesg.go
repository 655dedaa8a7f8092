package dmesg

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
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

// Result is what Parse found.
type Result struct {
	Events  []Event
	Lines   int // lines read
	Dropped int // events beyond MaxEvents, counted but not kept
}

// Limits that keep a huge log bounded in memory.
const (
	MaxEvents = 2000     // events kept
	maxText   = 512      // bytes of text kept per event
	maxLine   = 64 << 10 // bytes read per line
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
	stampRE   = regexp.MustCompile(`^\[\s*(\d+\.\d+)\]\s?`)
	ctimeRE   = regexp.MustCompile(`^\[([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\]\s?`)
	isoRE     = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[.,\d]*(?:Z|[+-]\d\d:?\d\d)?)\s+`)
	syslogRE  = regexp.MustCompile(`^([A-Z][a-z]{2}\s+\d{1,2} \d\d:\d\d:\d\d) \S+ kernel: `)
	kernelRE  = regexp.MustCompile(`^\S+ kernel: `)
	devMsgRE  = regexp.MustCompile(`^([A-Za-z0-9_.-]+) ([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])(?: [^\s:]+)?: (.*)$`)
	modMsgRE  = regexp.MustCompile(`^([A-Za-z0-9_-]+): (.*)$`)
	pciPfxRE  = regexp.MustCompile(`^([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]):? `)
	disagree  = regexp.MustCompile(`disagrees about version of symbol (\S+)`)
	unknown   = regexp.MustCompile(`Unknown symbol (\S+)(?: \(err (-?\d+)\))?`)
	probe     = regexp.MustCompile(`probe of (\S+) failed with error (-?\d+)`)
	failedErr = regexp.MustCompile(`failed with error(?: code)? (-?\d+)`)
	fwLoad    = regexp.MustCompile(`Direct firmware load for (\S+) failed with error (-?\d+)`)
	fwProblem = regexp.MustCompile(`(?i)can't load firmware|error loading firmware|firmware.{0,40}(too old|mismatch|incompatible|not supported|unsupported|is older)|\bfw\b.{0,40}(too old|mismatch|incompatible)`)
	roceRE    = regexp.MustCompile(`(?i)RoCE ?v?2 enabled|RoCE ?v?1 enabled|RoCE mode`)
	fwVersion = regexp.MustCompile(`(?i)firmware version:? \S+|\bFW version:? \S+`)
	initRE    = regexp.MustCompile(`(?i)\bdriver\b|^initializing [0-9a-f]{4}:|\binit$`)
	compatRE  = regexp.MustCompile(`(?i)^compat-mlnx-ofed backport`)
)

type pending struct {
	time, text string
	line       int
	set        bool
}

// Parse reads a kernel log and classifies its RDMA-relevant lines. Lines
// without a timestamp that follow timestamped ones are continuations
// (wrapped mail, multi-line messages) and are joined to them.
func Parse(r io.Reader) (Result, error) {
	var res Result
	var p pending
	stamped := false
	flush := func() {
		if p.set {
			classify(&res, p)
		}
		p = pending{}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		raw, err := readLine(br)
		if raw != "" || err == nil {
			res.Lines++
			t, text, ok := stamp(raw)
			switch {
			case ok:
				stamped = true
				flush()
				p = pending{time: t, text: text, line: res.Lines, set: true}
			case stamped && p.set && strings.TrimSpace(raw) != "":
				if len(p.text) < maxText {
					p.text += " " + strings.TrimSpace(raw)
				}
			default:
				flush()
				p = pending{text: strings.TrimSpace(raw), line: res.Lines, set: true}
			}
		}
		if err == io.EOF {
			flush()
			return res, nil
		}
		if err != nil {
			flush()
			return res, err
		}
	}
}

// stamp strips a leading timestamp, reporting whether there was one.
func stamp(line string) (t, text string, ok bool) {
	line = strings.TrimRight(line, " \t")
	for _, re := range []*regexp.Regexp{stampRE, ctimeRE, syslogRE, isoRE} {
		if m := re.FindStringSubmatchIndex(line); m != nil {
			t, text = line[m[2]:m[3]], line[m[1]:]
			if loc := kernelRE.FindStringIndex(text); loc != nil {
				text = text[loc[1]:]
			}
			if m2 := stampRE.FindStringSubmatchIndex(text); m2 != nil && re != stampRE {
				text = text[m2[1]:]
			}
			return t, strings.TrimSpace(text), true
		}
	}
	return "", line, false
}

func classify(res *Result, p pending) {
	text := p.text
	if text == "" {
		return
	}
	module, device, rest := speaker(text)
	ev := Event{Time: p.time, Module: module, Device: device, Line: p.line}
	rel := relevant[module]
	switch {
	case compatRE.MatchString(text):
		ev.Kind, ev.Module = DriverInit, "mlx_compat"
	case disagree.MatchString(text):
		m := disagree.FindStringSubmatch(text)
		if !rel && !rdmaSymbolRE.MatchString(m[1]) {
			return
		}
		ev.Kind = SymbolMismatch
	case unknown.MatchString(text):
		m := unknown.FindStringSubmatch(text)
		if !rel && !rdmaSymbolRE.MatchString(m[1]) {
			return
		}
		ev.Kind, ev.Errno = UnknownSymbol, atoi(m[2])
	case !rel:
		return
	case probe.MatchString(text):
		m := probe.FindStringSubmatch(text)
		ev.Kind, ev.Device, ev.Errno = ProbeFailure, m[1], atoi(m[2])
	case fwLoad.MatchString(text):
		ev.Kind, ev.Errno = FirmwareProblem, atoi(fwLoad.FindStringSubmatch(text)[2])
	case fwProblem.MatchString(rest):
		ev.Kind = FirmwareProblem
	case roceRE.MatchString(rest):
		ev.Kind = RoCEEnabled
	case failedErr.MatchString(rest):
		ev.Kind, ev.Errno = ProbeFailure, atoi(failedErr.FindStringSubmatch(rest)[1])
	case fwVersion.MatchString(rest):
		ev.Kind = Firmware
	case initRE.MatchString(rest):
		ev.Kind = DriverInit
	default:
		return
	}
	if len(text) > maxText {
		text = text[:maxText]
	}
	ev.Text = text
	if len(res.Events) >= MaxEvents {
		res.Dropped++
		return
	}
	res.Events = append(res.Events, ev)
}

// speaker finds the module and device a kernel message names:
// "mlx5_core 0000:0b:00.0: msg", "enic 0000:62:00.1 eth1: enic_rdma: msg",
// "mlx4_en: 0000:41:00.0: msg" or "bnxt_re: msg".
func speaker(text string) (module, device, rest string) {
	if m := devMsgRE.FindStringSubmatch(text); m != nil {
		module, device, rest = m[1], strings.ToLower(m[2]), m[3]
		if n := modMsgRE.FindStringSubmatch(rest); n != nil && relevant[n[1]] {
			module, rest = n[1], n[2]
		}
		return module, device, rest
	}
	if m := modMsgRE.FindStringSubmatch(text); m != nil {
		module, rest = m[1], m[2]
		if d := pciPfxRE.FindStringSubmatch(rest); d != nil {
			device = strings.ToLower(d[1])
		}
		return module, device, rest
	}
	return "", "", text
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

func readLine(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(b) < maxLine {
			n := min(len(frag), maxLine-len(b))
			b = append(b, frag[:n]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimRight(string(b), "\r\n"), err
	}
}
