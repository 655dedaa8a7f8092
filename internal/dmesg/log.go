package dmesg

import (
	"bufio"
	"bytes"
	"io"
	"iter"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
	"github.com/rocekb/rocekb/internal/need"
)

// Event kinds that only ParseLog reports.
const (
	QPError       = "qp-error"               // a QP could not be created or modified
	AsyncError    = "async-error"            // an asynchronous, CQ or work-queue error event
	CommandError  = "command-error"          // a firmware command failed, with its status and syndrome
	FlashFailure  = "firmware-flash-failure" // mlxfw or a driver failed to flash or activate firmware
	ULPFailure    = "ulp-failure"            // an RDMA upper-layer protocol failed to attach or connect
	KernelWarning = "kernel-warning"         // a WARNING or BUG block in RDMA code
	PCIeLimited   = "pcie-limited"           // "… available PCIe bandwidth, limited by …"
	BARUnassigned = "bar-unassigned"         // a BAR could not be assigned
)

// broadSpeakers speak about RDMA hardware without a PCI address on the
// line, or about the PCI bus itself.
var broadSpeakers = map[string]bool{
	"mlxfw": true, "pci": true, "infiniband": true, "hfi1": true, "cxgb4": true, "iw_cxgb4": true, "rdmavt": true,
	"ib_mthca": true, "mlx5_vdpa": true, "mlx5_fwctl": true,
}

// ulps are the RDMA upper-layer protocols (storage, file, socket and
// IPoIB), as the kernel prefixes their messages. CIFS is not one: it
// speaks for TCP too, so only its SMB Direct lines count (ulpOnRDMA).
var ulps = map[string]bool{
	"ib_srp": true, "ib_srpt": true, "srp": true, "iser": true, "ib_iser": true, "isert": true, "ib_isert": true,
	"nvme_rdma": true, "nvmet_rdma": true, "rpcrdma": true, "svcrdma": true, "RPC": true, "rds_rdma": true, "RDS/IB": true,
	"ksmbd": true, "smbd": true, "ib_ipoib": true, "ipoib": true, "rdma_cm": true, "ib_cm": true, "smc": true,
	"nv_peer_mem": true, "nvidia-peermem": true, "ib_umad": true, "ib_uverbs": true,
}

var (
	qpRE      = need.MustCompile(`(?i)\b(create|modify|destroy)[_ ]?qp\b.*\b(fail|failed|failure|error|err)\b|\bqp\b.{0,60}\b(failed|error)\b|\b(?:fail(?:ed)?|couldn't|could not|unable|can't|cannot)\b.{0,30}\b(?:create|modify|destroy|change|alloc\w*|init\w*)\b.{0,20}\bqp\d*\b|\bno qp matches\b|\bcreate qp: unsupported\b|\berror for (?:create|modify) qp\b`)
	asyncRE   = regexp.MustCompile(`(?i)async(hronous)? (event|error)|\bcq error|error cqe|dump error cqe|work queue|\bwq\b.{0,30}(error|catastroph)|catastrophic|local (qp|protection|length)( operation)? error|internal error|health compromised|fatal error|\bpoll cq with roce_cqe_\w+_err\b|\bwc error: \d+`)
	flashRE   = regexp.MustCompile(`(?i)(flash|burn|fsm|component|image|activat).{0,60}\b(fail|failed|error|timeout|timed out)\b|\b(fail|failed|error)\b.{0,40}\b(flash|burn)`)
	ulpFailRE = regexp.MustCompile(`(?i)\b(fail|failed|failure|error|err|couldn't|could not|unable|can't|cannot|timed out|rejected)\b`)
	limitRE   = regexp.MustCompile(`([\d.]+) Gb/s available PCIe bandwidth(?:, limited by ([\d.]+) GT/s PCIe x(\d+) link at ([0-9a-fA-F:.]+) \(capable of ([\d.]+) Gb/s with ([\d.]+) GT/s PCIe x(\d+) link\)| \(([\d.]+) GT/s PCIe x(\d+) link\))`)
	barRE     = regexp.MustCompile(`(?i)\bBAR \d+: (no space|failed to assign|can't assign|error updating)|\bBAR \d+ \[.*\]: (can't|failed)`)
	pciIDRE   = regexp.MustCompile(`^\[([0-9a-f]{4}):([0-9a-f]{4})\](?: type ([0-9a-f]{2}))?(?: class 0x([0-9a-f]{6}))?`)
	renameRE  = regexp.MustCompile(`^(\S+): renamed from (\S+)`)
	linuxRE   = regexp.MustCompile(`^Linux version (\S+)`)
	taintRE   = regexp.MustCompile(`\b(?:Tainted: ([A-Z ]+?)|Not tainted) +(\d+\.\d+\S*)`)
	warnRE    = regexp.MustCompile(`^(WARNING|BUG|Oops|kernel BUG)\b`)
	rdmaCode  = regexp.MustCompile(`drivers/infiniband/|drivers/net/ethernet/(mellanox|broadcom/bnxt|intel/ice|intel/irdma|intel/i40e|qlogic/qed|hisilicon/hns3|emulex|cisco/enic)|net/rds/|net/sunrpc/xprtrdma|net/smc/|net/core/devlink|net/devlink/|\[(hclge|hclgevf|hns3|ntrdma|ib_rxe|ib_core|rdma_cm|ib_cm|iw_cm|ib_uverbs|rdma_ucm|mlx5_ib|mlx5_core|mlx4_ib|mlx4_core|mlx4_en|bnxt_re|bnxt_en|irdma|i40iw|qedr|qed|qede|hns_roce\w*|rdma_rxe|siw|ib_ipoib|ib_srp|ib_srpt|ib_iser|ib_isert|nvme_rdma|nvmet_rdma|rpcrdma|rds_rdma|ice|efa|mana_ib|erdma|vmw_pvrdma)\]`)
	rdmaName  = regexp.MustCompile(`^(mlx[45]_\d+|mlx5_bond_\d+|bnxt_re\d+|irdma\d+|i40iw\d+|rxe\d+|rxe_[a-z]+\d\w*|[a-z]+\d\w*_rxe|siw\d+|siw_[a-z]+\d\w*|qedr\d+|hns_\d+|hrn\d+_\d+|efa_\d+|erdma_\d+|mana_\d+|ionic_\d+|rocep\w+|roceo\w+|rocex\w+|rdmap\w+|vmw_pvrdma\d+|ocrdma\d+|usnic_\d+|hfi1_\d+|qib\d+)$`)
)

// asyncWords are literals one of which every asyncRE match holds, in
// lower case, one or more per alternative of the pattern.
var asyncWords = []string{"async", "cq error", "error cqe", "work queue", "wq", "catastroph", "local ", "internal error", "wc error",
	"health compromised", "fatal error", "poll cq with"}

var asyncIDs = lits(asyncWords...)

// isAsync is asyncRE.MatchString(rest), for lower = strings.ToLower(rest).
// Every asyncRE match starts at one of asyncWords, so on an ASCII line
// the pattern is tried only from the first of them (from the byte before
// it, which keeps \b right), or not at all when there is none: it was
// most of ParseLog's time, met by every relevant line. A non-ASCII line
// gets the whole pattern, since (?i) also folds k and s with the Kelvin
// and long-s signs, which lower does not.
func isAsync(rest, lower string) bool {
	for i := 0; i < len(rest); i++ {
		if rest[i] >= 0x80 {
			return asyncRE.MatchString(rest)
		}
	}
	first := -1
	for _, w := range asyncWords {
		if i := strings.Index(lower, w); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	if first < 0 {
		return false
	}
	return asyncRE.MatchString(rest[max(first-1, 0):])
}

// rdmaPrefixes are the literal heads of rdmaName's alternatives: a word
// that starts with none of them is not an RDMA device name, which spares
// the pattern every word of every relevant line.
var rdmaPrefixes = []string{"mlx4_", "mlx5_", "bnxt_re", "irdma", "i40iw", "rxe", "siw", "qedr", "hns_", "hrn", "efa_",
	"erdma_", "mana_", "ionic_", "rocep", "roceo", "rocex", "rdmap", "vmw_pvrdma", "ocrdma", "usnic_", "hfi1_", "qib"}

// rdmaFirst are the first bytes of rdmaPrefixes.
var rdmaFirst = func() (t [256]bool) {
	for _, p := range rdmaPrefixes {
		t[p[0]] = true
	}
	return t
}()

// isRDMAName reports whether a word is an RDMA device name (rdmaName).
func isRDMAName(w string) bool {
	if strings.HasSuffix(w, "_rxe") {
		return rdmaName.MatchString(w) // "enp1s0_rxe", as blktests names it
	}
	if w == "" || !rdmaFirst[w[0]] {
		return false
	}
	for _, p := range rdmaPrefixes {
		if strings.HasPrefix(w, p) {
			return rdmaName.MatchString(w)
		}
	}
	return false
}

// isWarning is warnRE, whose words are tried as prefixes first.
func isWarning(s string) bool {
	return (strings.HasPrefix(s, "WARNING") || strings.HasPrefix(s, "BUG") || strings.HasPrefix(s, "Oops") ||
		strings.HasPrefix(s, "kernel BUG")) && warnRE.MatchString(s)
}

// mayContainFold is a cheap test before a (?i) pattern that needs word
// (ASCII letters, lower case): false only when s is ASCII and holds no
// case of word. (A non-ASCII s may: (?i) also folds k and s with the
// Kelvin and long-s signs.)
func mayContainFold(s, word string) bool {
	found := false
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
		// An ASCII letter's two cases differ in the 0x20 bit only.
		if !found && s[i]|0x20 == word[0] && i+len(word) <= len(s) && strings.EqualFold(s[i:i+len(word)], word) {
			found = true
		}
	}
	return found
}

// rdmaTools are rdma-core's and perftest's test programs (librdmacm's
// examples, libibverbs' pingpongs, perftest's ib_* tools): a WARNING in
// the context of one of them ("CPU: 0 PID: 2613 Comm: rping …") was
// raised by the RDMA path it drives, whatever file it names.
var rdmaTools = map[string]bool{"rping": true, "ucmatose": true, "udaddy": true, "mckey": true, "rdma_server": true,
	"rdma_client": true, "rdma_xserver": true, "rdma_xclient": true, "riostream": true, "rstream": true, "cmtime": true}

// rdmaComm reports whether a "CPU: … PID: … Comm: <name>" line names an
// RDMA test program.
func rdmaComm(text string) bool {
	if !strings.HasPrefix(text, "CPU: ") {
		return false
	}
	_, rest, ok := strings.Cut(text, " Comm: ")
	if !ok {
		return false
	}
	comm, _, _ := strings.Cut(rest, " ")
	return rdmaTools[comm] || strings.HasPrefix(comm, "ib_") && (strings.HasSuffix(comm, "_bw") || strings.HasSuffix(comm, "_lat")) ||
		strings.HasPrefix(comm, "ibv_") && strings.HasSuffix(comm, "_pingpong")
}

// loadingRDMA reports whether a "Modules linked in:" line marks an RDMA
// module as being loaded ("mlx5_core(OE+)"): a WARNING while it loads is
// in its code, whatever file the WARNING names.
func loadingRDMA(text string) bool {
	rest, ok := strings.CutPrefix(text, "Modules linked in:")
	if !ok {
		return false
	}
	for _, f := range strings.Fields(rest) {
		name, flags, ok := strings.Cut(f, "(")
		if ok && strings.Contains(flags, "+") && relevant[name] {
			return true
		}
	}
	return false
}

// rdmaPaths and rdmaModules are rdmaCode's alternatives: source paths,
// and module names as a stack trace brackets them ("[mlx5_core]").
var (
	rdmaPaths = []string{"drivers/infiniband/", "drivers/net/ethernet/mellanox", "drivers/net/ethernet/broadcom/bnxt",
		"drivers/net/ethernet/intel/ice", "drivers/net/ethernet/intel/irdma", "drivers/net/ethernet/intel/i40e",
		"drivers/net/ethernet/qlogic/qed", "drivers/net/ethernet/hisilicon/hns3", "drivers/net/ethernet/emulex",
		"drivers/net/ethernet/cisco/enic", "net/rds/", "net/sunrpc/xprtrdma", "net/smc/", "net/core/devlink", "net/devlink/"}
	rdmaModules = map[string]bool{}
)

func init() {
	for _, m := range strings.Split("hclge|hclgevf|hns3|ntrdma|ib_rxe|ib_core|rdma_cm|ib_cm|iw_cm|ib_uverbs|rdma_ucm|mlx5_ib|mlx5_core|mlx4_ib|mlx4_core|mlx4_en|bnxt_re|bnxt_en|irdma|i40iw|qedr|qed|qede|rdma_rxe|siw|ib_ipoib|ib_srp|ib_srpt|ib_iser|ib_isert|nvme_rdma|nvmet_rdma|rpcrdma|rds_rdma|ice|efa|mana_ib|erdma|vmw_pvrdma", "|") {
		rdmaModules[m] = true
	}
}

// isRDMACode is rdmaCode.MatchString(s), written out because it runs on
// every line of a WARNING or BUG block: a path of rdmaPaths, or a '['
// whose text up to the next ']' is one of rdmaModules or "hns_roce" and
// word characters (the pattern's hns_roce\w*). Every module name is word
// characters, so the next ']' is where a bracketed name ends.
func isRDMACode(s string) bool {
	if hasPathRoot(s) {
		for _, p := range rdmaPaths {
			if strings.Contains(s, p) {
				return true
			}
		}
	}
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '[')
		if j < 0 {
			return false
		}
		i += j + 1
		k := strings.IndexByte(s[i:], ']')
		if k < 0 {
			return false
		}
		name := s[i : i+k]
		if rdmaModules[name] {
			return true
		}
		if tail, ok := strings.CutPrefix(name, "hns_roce"); ok && allWordBytes(tail) {
			return true
		}
	}
}

// hasPathRoot is strings.Contains(s, "drivers/") ||
// strings.Contains(s, "net/"), in one pass over the slashes of s.
func hasPathRoot(s string) bool {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '/')
		if j < 0 {
			return false
		}
		k := i + j
		if strings.HasSuffix(s[:k], "drivers") || strings.HasSuffix(s[:k], "net") {
			return true
		}
		i = k + 1
	}
}

func allWordBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if !need.IsWordByte(s[i]) {
			return false
		}
	}
	return true
}

// Binding is a driver bound to a PCI function, as its own lines prove:
// "mlx5_core 0000:03:00.0: …", "enic 0000:62:00.1 eth1: …".
type Binding struct {
	Driver       string
	PCIAddress   string
	Netdevs      []string // netdev names the driver printed after the address
	NetdevLines  []int    // per netdev: the first line naming it
	RDMADevices  []string // RDMA device names printed after the address
	Firmware     string   // "firmware version: 16.27.2048" and the like, when printed
	FirmwareLine int      // line of Firmware
	Line         int      // first line naming the binding
}

// PCIID is a "pci <BDF>: [vvvv:dddd] type 00 class 0x020000" line.
type PCIID struct {
	PCIAddress string
	Vendor     string // 4 hex digits
	Device     string // 4 hex digits
	Class      string // 6 hex digits, when printed
	Line       int
}

// Bandwidth is a PCIe bandwidth line of a driver or the PCI core.
type Bandwidth struct {
	PCIAddress    string
	AvailableGbps float64
	SpeedGTps     float64 // the limiting link when LimitedBy is set, else the link itself
	Width         int
	LimitedBy     string  // PCI address of the limiting link, when limited
	CapableGbps   float64 // "capable of …", when limited
	CapableGTps   float64
	CapableWidth  int
	Line          int
}

// Rename is "<driver> <BDF> <new>: renamed from <old>".
type Rename struct {
	Driver     string
	PCIAddress string
	From, To   string
	Line       int
}

// Name is an RDMA device named by "infiniband <dev>: …", a driver line
// or a ULP message.
type Name struct {
	Device string
	Module string // who printed it
	Line   int
}

// ContextLine is a line kept with an event to show its cause.
type ContextLine struct {
	Text string
	Line int
}

// Log is what ParseLog found.
type Log struct {
	Events      []Event
	Context     map[int][]ContextLine // per event index: earlier lines of the same device (probe failures), the block (warnings), or an mlx5 error completion's syndrome line
	Bindings    []Binding
	PCIIDs      []PCIID
	Bandwidth   []Bandwidth
	Renames     []Rename
	RDMANames   []Name
	Modules     []string // "Modules linked in:", first list, in order
	ModulesLine int
	// KernelRelease from "Linux version …" or a "Tainted:"/"Not tainted"
	// line; KernelReleaseFrom says which.
	KernelRelease     string
	KernelReleaseFrom string
	KernelReleaseLine int
	Tainted           string // taint flags of the first "Tainted:" line, e.g. "G OE"
	// Repairs counts the paste damage undone: "line-numbers",
	// "quoted-printable", "mail-quote", "indentation".
	Repairs map[string]int
	Lines   int
	Dropped int
}

// Bounds for ParseLog.
const (
	maxBindings = 1024
	maxContext  = 8  // lines kept before a probe failure
	maxBlock    = 40 // lines of a WARNING/BUG block examined
	maxDevices  = 512
)

// ParseLog reads a kernel log like Parse, after undoing paste damage
// (line-number prefixes of cat -n, grep -n and web viewers, indentation,
// mail quote marks and wrapping, and quoted-printable soft breaks and
// escapes), and keeps more: any driver speaking about a PCI function,
// driver↔function bindings, PCI ids, PCIe bandwidth, netdev renames,
// RDMA device names, the modules and kernel release of oops blocks, and
// the kinds QPError … BARUnassigned. Probe failures carry the same
// device's earlier lines in Context.
func ParseLog(r io.Reader) (Log, error) {
	lg := Log{Context: map[int][]ContextLine{}, Repairs: map[string]int{}}
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(64 << 10)
	st := &logState{lg: &lg, recent: map[string][]ContextLine{}, bindings: map[[2]string]int{}, cqe: -1}
	var q *qpLines
	if isQuotedPrintable(head) {
		q = &qpLines{st: st}
	}
	src := chunkLines{br: br}
	for {
		raw, err := src.read()
		if raw != "" || err == nil {
			lg.Lines++
			if q != nil {
				q.add(raw, lg.Lines)
			} else {
				st.line(raw, lg.Lines)
			}
		}
		if err != nil {
			if q != nil {
				q.end()
			}
			st.flush(st.p)
			st.endBlock()
			lg.detach()
			if err == io.EOF {
				return lg, nil
			}
			return lg, err
		}
	}
}

// chunkLines reads a log's lines as lines.Read does, but copies each run
// of whole lines the reader holds into one string, and cuts the lines from
// it: one allocation per buffer (64 KiB), not per line. A line the buffer
// does not hold whole (longer than it, or the last, unended) is
// lines.Read's. What the Log keeps of a line is copied out of its chunk
// at the end (Log.detach).
type chunkLines struct {
	br    *bufio.Reader
	chunk string // whole lines read, not yet returned
}

// newChunk makes a chunk's string; a test sees each.
var newChunk = func(b []byte) string { return string(b) }

func (c *chunkLines) read() (string, error) {
	if c.chunk == "" {
		b, _ := c.br.Peek(c.br.Size())
		k := bytes.LastIndexByte(b, '\n')
		if k < 0 {
			return lines.Read(c.br)
		}
		c.chunk = newChunk(b[:k+1])
		c.br.Discard(k + 1)
	}
	i := strings.IndexByte(c.chunk, '\n')
	line := c.chunk[:i]
	c.chunk = c.chunk[i+1:]
	for line != "" && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line, nil
}

// detach copies every string the Log holds out of the line chunks it was
// cut from, into one string: one event per 64 KiB chunk would otherwise
// keep all of a long log alive as long as its Log.
func (lg *Log) detach() {
	n := 0
	lg.eachString(func(s *string) { n += len(*s) })
	var b strings.Builder
	b.Grow(n)
	lg.eachString(func(s *string) {
		if *s == "" {
			return
		}
		at := b.Len()
		b.WriteString(*s)
		*s = b.String()[at:]
	})
}

// eachString calls f with every string of the Log that a line gave it.
func (lg *Log) eachString(f func(*string)) {
	for i := range lg.Events {
		e := &lg.Events[i]
		f(&e.Time)
		f(&e.Module)
		f(&e.Device)
		f(&e.Text)
	}
	for _, ctx := range lg.Context {
		for i := range ctx {
			f(&ctx[i].Text)
		}
	}
	for i := range lg.Bindings {
		b := &lg.Bindings[i]
		f(&b.Driver)
		f(&b.PCIAddress)
		for j := range b.Netdevs {
			f(&b.Netdevs[j])
		}
		for j := range b.RDMADevices {
			f(&b.RDMADevices[j])
		}
		f(&b.Firmware)
	}
	for i := range lg.PCIIDs {
		p := &lg.PCIIDs[i]
		f(&p.PCIAddress)
		f(&p.Vendor)
		f(&p.Device)
		f(&p.Class)
	}
	for i := range lg.Bandwidth {
		f(&lg.Bandwidth[i].PCIAddress)
		f(&lg.Bandwidth[i].LimitedBy)
	}
	for i := range lg.Renames {
		r := &lg.Renames[i]
		f(&r.Driver)
		f(&r.PCIAddress)
		f(&r.From)
		f(&r.To)
	}
	for i := range lg.RDMANames {
		f(&lg.RDMANames[i].Device)
		f(&lg.RDMANames[i].Module)
	}
	for i := range lg.Modules {
		f(&lg.Modules[i])
	}
	f(&lg.KernelRelease)
	f(&lg.Tainted)
}

// line takes one physical line of the log (n is its line number): a
// timestamp starts a message, a line without one continues the message
// before it or stands alone.
func (st *logState) line(raw string, n int) {
	line := st.repair(raw)
	t, text, ident, ok := stamp(line)
	switch {
	case ok:
		st.stamped = true
		st.flush(st.p)
		st.p = pending{time: t, text: text, ident: ident, line: n, set: true}
	case st.stamped && st.p.set && strings.TrimSpace(line) != "" && (!looksLikeStart(line) || bareWord(st.p.text)):
		if len(st.p.text) < lines.Max {
			st.p.text += " " + strings.TrimSpace(line)
		}
	default:
		st.flush(st.p)
		st.p = pending{text: strings.TrimSpace(line), line: n, set: true}
	}
}

// qpLines decodes quoted-printable text into the lines it encodes. A line
// ending in "=" is a soft break: it continues on the next one. An encoded
// newline ("=0A", "=0D=0A") ends a line anywhere, which is how some mail
// clients (Outlook among them) send every line: "text=0A=" followed by a
// soft break, so the whole body is one soft-broken run.
type qpLines struct {
	st    *logState
	buf   string // encoded text of the line being joined
	start int    // line number where buf began
}

func (q *qpLines) add(raw string, n int) {
	if q.buf == "" {
		q.start = n
	}
	body, soft := strings.CutSuffix(raw, "=")
	if soft {
		q.st.lg.Repairs["quoted-printable"]++
	}
	s := q.buf + body
	for {
		i := strings.Index(s, "=0A")
		if i < 0 {
			break
		}
		q.st.line(decodeQP(strings.TrimSuffix(s[:i], "=0D")), q.start)
		s = s[i+len("=0A"):]
		q.start = n
	}
	// A line without a soft break ends here; so does a run past the line
	// cap, which only hostile input makes.
	if !soft || len(s) > lines.Max {
		if s != "" || !soft {
			q.st.line(decodeQP(s), q.start)
		}
		s = ""
	}
	q.buf = s
}

// end flushes a soft-broken run the input ended in.
func (q *qpLines) end() {
	if q.buf != "" {
		q.st.line(decodeQP(q.buf), q.start)
		q.buf = ""
	}
}

// bareWord reports whether a message so far is one word: a line a mail
// wrapped right after its driver's name ("kernel: [325978.631877]
// bnxt_en", then "0000:45:00.0 eth0: TX timeout …"). No message is one
// word, so the next line continues it even when it looks like a start.
func bareWord(text string) bool {
	t := strings.TrimSpace(text)
	return t != "" && !strings.ContainsAny(t, " \t")
}

// looksLikeStart tells a new unstamped message from a wrapped
// continuation in a stamped log: a speaker with a PCI address or a
// "Modules linked in:"-style header starts a message.
func looksLikeStart(line string) bool {
	t := strings.TrimSpace(line)
	if ruleLine(t) {
		return true
	}
	if m, d, _ := speaker(t); m != "" && d != "" {
		return true
	}
	return isWarning(t)
}

// ruleLine reports whether a line is a row of one separator character
// ("======", "------", "```"), as a poster frames a pasted log: it
// continues no kernel message.
func ruleLine(t string) bool {
	if len(t) < 3 || !strings.ContainsRune("=-*~`#_", rune(t[0])) {
		return false
	}
	return strings.Trim(t, t[:1]) == ""
}

type logState struct {
	lg       *Log
	p        pending                  // the message being read
	stamped  bool                     // a timestamped line was seen
	recent   map[string][]ContextLine // per device: its last lines
	bindings map[[2]string]int        // driver, address → index in Bindings
	block    []ContextLine            // the current WARNING/BUG block
	prev     string                   // the message before this one, "cut here" lines skipped
	blockEv  int                      // index of the block's event, -1 when none yet
	cqe      int                      // index of the event of an mlx5 "error cqe" line just read, -1 when none
	m        msg                      // the message being classified, scanned
}

// errCQE and syndromeRE are the two lines mlx5_poll_one logs for an
// error completion (drivers/infiniband/hw/mlx5/cq.c): "Requestor|Responder
// error cqe on cqn 0x%x:", then "syndrome 0x%x, vendor syndrome 0x%x".
// errCQELineRE is the first as a whole line, which the parser keeps the
// second with.
const errCQE = `\b(?:Requestor|Responder) error cqe on cqn 0x[0-9a-f]+`

var (
	errCQERE     = regexp.MustCompile(errCQE)
	errCQELineRE = regexp.MustCompile(errCQE + `:?\s*$`)
	syndromeRE   = regexp.MustCompile(`(?:^|: )syndrome 0x([0-9a-f]+), vendor syndrome 0x[0-9a-f]+\s*$`)
)

// ErrorCQE reports whether an event's text is mlx5's error completion
// line ("Responder error cqe on cqn 0x4c9:").
func ErrorCQE(text string) bool { return errCQERE.MatchString(text) }

// CQESyndrome is the syndrome (hex, as printed) of mlx5's second line of an
// error completion, which the parser keeps as its event's context.
func CQESyndrome(line string) (string, bool) {
	m := syndromeRE.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

var (
	lineNoRE = regexp.MustCompile(`^\s*\d{1,8}(?:[:\t-]|\s{1,8})\s*`)
	// gluedNoRE is a line number with no separator before a bracketed
	// timestamp, "1700[   22.316553] …", as a viewer's gutter copies; no
	// kernel line starts with digits and then "[".
	gluedNoRE = regexp.MustCompile(`^\s*\d{1,8}\[\s*\d+\.\d+\]`)
	cont      = regexp.MustCompile(`^\s*\[\s*\d+\.\d+\]|^\s*[A-Z][a-z]{2}\s+\d{1,2} \d\d:\d\d:\d\d |^\s*\d{4}-\d\d-\d\dT`)
)

// repair undoes per-line paste damage: mail quote marks, line-number
// prefixes (only when what follows is a timestamp or a speaker; with no
// separator only before a bracketed timestamp), and indentation before a
// timestamp.
func (st *logState) repair(raw string) string {
	line := raw
	for strings.HasPrefix(line, ">") {
		line = strings.TrimPrefix(strings.TrimPrefix(line, ">"), " ")
		st.lg.Repairs["mail-quote"]++
	}
	if digitFirst(line) {
		if loc := lineNoRE.FindStringIndex(line); loc != nil {
			rest := line[loc[1]:]
			if cont.MatchString(rest) || startsWithSpeaker(rest) {
				line = rest
				st.lg.Repairs["line-numbers"]++
			}
		} else if gluedNoRE.MatchString(line) {
			line = line[strings.IndexByte(line, '['):]
			st.lg.Repairs["line-numbers"]++
		}
	}
	if t := trimBlanksLeft(line); len(t) < len(line) && cont.MatchString(t) {
		line = t
		st.lg.Repairs["indentation"]++
	}
	return line
}

// digitFirst reports whether s, after any \s, begins with a digit, as
// lineNoRE and gluedNoRE need: other lines skip both patterns.
func digitFirst(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSpaceRE(s[i]) {
			return s[i] >= '0' && s[i] <= '9'
		}
	}
	return false
}

func startsWithSpeaker(s string) bool {
	m, d, _ := speaker(strings.TrimSpace(s))
	return m != "" && d != ""
}

// isQuotedPrintable decides from the start of the input: quoted-printable
// text has "=3D" or "=20" escapes, or several lines ending in a soft
// break "=".
func isQuotedPrintable(b []byte) bool {
	if bytes.Contains(b, []byte("=3D")) || bytes.Contains(b, []byte("=20\n")) {
		return true
	}
	return bytes.Count(b, []byte("=\n")) >= 2
}

// decodeQP decodes =XX escapes; a malformed escape is kept as is.
func decodeQP(s string) string {
	if !strings.Contains(s, "=") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '=' && i+2 < len(s)+0 && i+2 <= len(s)-1 {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil && isUpperHex(s[i+1:i+3]) {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isUpperHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// flush classifies one message and gathers its facts.
func (st *logState) flush(p pending) {
	if !p.set || p.text == "" {
		return
	}
	lg := st.lg
	text := p.text
	if p.ident != "" {
		// A user-space message: no facts about the hardware, no blocks.
		if ev, ok := userEvent(p); ok {
			st.add(ev)
		}
		return
	}
	// Who speaks is read once: facts, the block and the event all need it.
	sp := speakerOf(text)
	st.facts(p, sp)
	prev := st.prev
	if !strings.Contains(text, "[ cut here ]") {
		st.prev = text
	}
	if isWarning(text) {
		st.endBlock()
		st.block = append(make([]ContextLine, 0, maxContext), ContextLine{Text: cut(text), Line: p.line})
		st.blockEv = -1
		// The WARNING names RDMA code, or the line just before it does
		// ("workqueue: … [hclge] is flushing … infiniband").
		if isRDMACode(text) || isRDMACode(prev) {
			st.blockEv = st.add(Event{Kind: KernelWarning, Time: p.time, Text: cut(text), Line: p.line})
		}
		return
	}
	if st.block != nil {
		if strings.HasPrefix(text, "---[ end trace") || len(st.block) >= maxBlock {
			st.endBlock()
		} else {
			st.block = append(st.block, ContextLine{Text: cut(text), Line: p.line})
			// The WARN's own message follows the WARNING line: a driver
			// of RDMA hardware speaking for its function there names the
			// device ("mlx4_core 0000:00:07.0: DMA-API: …").
			device := ""
			if len(st.block) == 2 {
				if sp.device != "" && sp.kind&relevantKind != 0 {
					device = sp.device
				}
			}
			if st.blockEv < 0 && (device != "" || isRDMACode(text) || loadingRDMA(text) || rdmaComm(text)) {
				first := st.block[0]
				st.blockEv = st.add(Event{Kind: KernelWarning, Time: p.time, Text: first.Text, Line: first.Line, Device: device})
			}
			return
		}
	}
	st.m.reset(text)
	ev, ok := event(p, sp, &st.m)
	device := sp.device
	if !ok && st.cqe >= 0 && syndromeRE.MatchString(text) {
		// mlx5's second line of an error completion: its syndrome, kept
		// with the "error cqe on cqn" line it follows.
		if e := lg.Events[st.cqe]; (e.Device == "" || strings.Contains(text, e.Device)) && p.line-e.Line <= 2 {
			lg.Context[st.cqe] = append(lg.Context[st.cqe], ContextLine{Text: cut(text), Line: p.line})
		}
		st.cqe = -1
		return
	}
	st.cqe = -1
	if ok {
		i := st.add(ev)
		if ev.Kind == AsyncError && i >= 0 && errCQELineRE.MatchString(text) {
			st.cqe = i
		}
		if ev.Kind == ProbeFailure && i >= 0 {
			if ctx := st.recent[ev.Device]; len(ctx) > 0 {
				lg.Context[i] = ctx
			}
			delete(st.recent, ev.Device)
			return
		}
	}
	if device != "" {
		if _, seen := st.recent[device]; seen || len(st.recent) < maxDevices {
			r := append(st.recent[device], ContextLine{Text: cut(text), Line: p.line})
			if len(r) > maxContext {
				r = r[len(r)-maxContext:]
			}
			st.recent[device] = r
		}
	}
}

// endBlock closes a WARNING/BUG block, keeping it as the context of its
// event when it was in RDMA code.
func (st *logState) endBlock() {
	if st.block != nil && st.blockEv >= 0 {
		st.lg.Context[st.blockEv] = st.block[:min(len(st.block), maxContext)]
	}
	st.block, st.blockEv = nil, -1
}

func (st *logState) add(ev Event) int {
	if len(st.lg.Events) >= MaxEvents {
		st.lg.Dropped++
		return -1
	}
	st.lg.Events = append(st.lg.Events, ev)
	return len(st.lg.Events) - 1
}

// facts gathers what a message states besides its event.
func (st *logState) facts(p pending, sp speech) {
	lg := st.lg
	text := p.text
	if rest, ok := strings.CutPrefix(text, "Modules linked in:"); ok && lg.Modules == nil {
		if i := strings.Index(rest, "[last unloaded:"); i >= 0 {
			rest = rest[:i]
		}
		for _, f := range strings.Fields(rest) {
			// "mlx5_ib(+)", "nvidia(POE)": the flags are not the name.
			if i := strings.IndexByte(f, '('); i > 0 {
				f = f[:i]
			}
			if isWord(f) {
				lg.Modules = append(lg.Modules, f)
			}
			if len(lg.Modules) >= 4096 {
				break
			}
		}
		lg.ModulesLine = p.line
		return
	}
	if strings.HasPrefix(text, "Linux version ") {
		if m := linuxRE.FindStringSubmatch(text); m != nil && lg.KernelReleaseFrom != "linux-version" {
			lg.KernelRelease, lg.KernelReleaseFrom, lg.KernelReleaseLine = m[1], "linux-version", p.line
			return
		}
	}
	if strings.Contains(text, "ainted") {
		if m := taintRE.FindStringSubmatch(text); m != nil {
			if lg.KernelRelease == "" {
				lg.KernelRelease, lg.KernelReleaseFrom, lg.KernelReleaseLine = m[2], "tainted", p.line
			}
			if lg.Tainted == "" {
				lg.Tainted = strings.Join(strings.Fields(m[1]), " ")
			}
		}
	}
	module, device, rest := sp.module, sp.device, sp.rest
	if cls, name, _, ok := classDeviceAt(text, sp.colon); ok && cls == "infiniband" {
		st.name(name, cls, p.line)
		return
	}
	if device == "" {
		if sp.kind&(ulpKind|relevantKind) != 0 {
			for f := range nameFields(rest) {
				if isRDMAName(f) {
					st.name(f, module, p.line)
				}
			}
		}
		return
	}
	if module == "pci" {
		if m := pciIDRE.FindStringSubmatch(rest); m != nil {
			lg.PCIIDs = append(lg.PCIIDs, PCIID{PCIAddress: device, Vendor: m[1], Device: m[2], Class: m[4], Line: p.line})
		}
	}
	if strings.Contains(rest, "available PCIe bandwidth") {
		if m, ok := pcieLimit(rest); ok {
			b := Bandwidth{PCIAddress: device, AvailableGbps: num(m[1]), Line: p.line}
			if m[2] != "" {
				b.SpeedGTps, b.Width, b.LimitedBy = num(m[2]), int(num(m[3])), strings.ToLower(m[4])
				b.CapableGbps, b.CapableGTps, b.CapableWidth = num(m[5]), num(m[6]), int(num(m[7]))
			} else {
				b.SpeedGTps, b.Width = num(m[8]), int(num(m[9]))
			}
			lg.Bandwidth = append(lg.Bandwidth, b)
		}
	}
	if module == "pci" || !isWord(module) {
		return
	}
	b := st.binding(module, device, p.line)
	if b == nil {
		return
	}
	if name := nameAfterAddressAt(text, sp.colon); name != "" {
		if isRDMAName(name) {
			b.RDMADevices = appendNew(b.RDMADevices, name)
			st.name(name, module, p.line)
		} else {
			if n := len(b.Netdevs); n < 16 && !slices.Contains(b.Netdevs, name) {
				b.Netdevs = append(b.Netdevs, name)
				b.NetdevLines = append(b.NetdevLines, p.line)
			}
		}
	}
	if strings.Contains(text, ": renamed from ") {
		if m := renameRE.FindStringSubmatch(strings.TrimPrefix(text, module+" "+device+" ")); m != nil && m[1] != device+":" {
			lg.Renames = append(lg.Renames, Rename{Driver: module, PCIAddress: device, To: m[1], From: m[2], Line: p.line})
		}
	}
	if b.Firmware == "" && (mayContainFold(rest, "version") || strings.Contains(rest, "fw_ver ")) {
		if m := fwValueRE.FindStringSubmatch(rest); m != nil && !strings.HasPrefix(m[1], "0x") {
			b.Firmware, b.FirmwareLine = m[1], p.line
		}
	}
}

// nameFields yields the fields of a message that can be RDMA device
// names, as strings.FieldsFunc splits it on ' ', ',', '(', ')', '/' and
// '=', each without the ':', '.' and ';' it ends in.
func nameFields(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := 0; i < len(s); {
			for i < len(s) && isNameSep(s[i]) {
				i++
			}
			j := i
			for j < len(s) && !isNameSep(s[j]) {
				j++
			}
			if j > i {
				if f := strings.TrimRight(s[i:j], ":.;"); !yield(f) {
					return
				}
			}
			i = j
		}
	}
}

func isNameSep(c byte) bool {
	return c == ' ' || c == ',' || c == '(' || c == ')' || c == '/' || c == '='
}

// pcieLimit is limitRE.FindStringSubmatch(s), written out because the
// pattern's nine groups cost microseconds on every bandwidth line. Each
// group is a run of its class that a literal beginning with a space
// follows, so it is the longest such run; the match starts where the run
// before the first " Gb/s available PCIe bandwidth" that completes one of
// the two tails begins.
func pcieLimit(s string) (m [10]string, ok bool) {
	const avail = " Gb/s available PCIe bandwidth"
	for from := 0; ; {
		i := strings.Index(s[from:], avail)
		if i < 0 {
			return m, false
		}
		at := from + i
		from = at + 1
		start := at
		for start > 0 && isNumDot(s[start-1]) {
			start--
		}
		if start == at {
			continue
		}
		tail := s[at+len(avail):]
		var g [10]string
		g[0], g[1] = s[start:at], s[start:at]
		if r, ok := cutRuns(tail, ", limited by ", &g[2], isNumDot, " GT/s PCIe x", &g[3], isDigitByte, " link at ", &g[4], isHexColonDot,
			" (capable of ", &g[5], isNumDot, " Gb/s with ", &g[6], isNumDot, " GT/s PCIe x", &g[7], isDigitByte, " link)"); ok {
			g[0] = s[start : len(s)-len(r)]
			return g, true
		}
		g = [10]string{1: g[1]}
		if r, ok := cutRuns(tail, " (", &g[8], isNumDot, " GT/s PCIe x", &g[9], isDigitByte, " link)"); ok {
			g[0] = s[start : len(s)-len(r)]
			return g, true
		}
	}
}

// cutRuns reads s as a literal, then by threes a group's destination,
// the class of its run (longest, not empty) and the literal after it;
// it returns what follows.
func cutRuns(s string, parts ...any) (string, bool) {
	s, ok := strings.CutPrefix(s, parts[0].(string))
	if !ok {
		return "", false
	}
	for k := 1; k+2 < len(parts); k += 3 {
		in := parts[k+1].(func(byte) bool)
		n := 0
		for n < len(s) && in(s[n]) {
			n++
		}
		if n == 0 {
			return "", false
		}
		*parts[k].(*string) = s[:n]
		if s, ok = strings.CutPrefix(s[n:], parts[k+2].(string)); !ok {
			return "", false
		}
	}
	return s, true
}

func isNumDot(c byte) bool    { return c >= '0' && c <= '9' || c == '.' }
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
func isHexColonDot(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '.'
}

// fwValueRE is a driver's firmware version line: "firmware version:
// 16.35.2000", and mlx5's health dump "fw_ver 20.26.4012" (whose "raw
// fw_ver 0x141a0fac" is the same number in hex, not a version).
var fwValueRE = regexp.MustCompile(`(?i)(?:^|\b)(?:firmware version|fw version|fw_ver):? ([0-9][0-9A-Za-z._-]*)`)

// nameAfterAddress returns the name in "<driver> <BDF> <name>: …".
func nameAfterAddress(text string) string {
	return nameAfterAddressAt(text, strings.Index(text, ": "))
}

// nameAfterAddressAt is nameAfterAddress given i, the index of the first
// ": " in text (-1 when none).
func nameAfterAddressAt(text string, i int) string {
	if i < 0 {
		return ""
	}
	head := text[:i]
	for j := 0; j < len(head); j++ {
		if head[j] >= 0x80 || head[j] == '\v' {
			// White space beyond ASCII's, as strings.Fields reads it.
			if f := strings.Fields(head); len(f) == 3 && isBDF(f[1]) {
				return f[2]
			}
			return ""
		}
	}
	// Three fields between ASCII white space, without a slice of them.
	var f [3]string
	n := 0
	for j := 0; j < len(head); {
		for j < len(head) && isSpaceRE(head[j]) {
			j++
		}
		if j == len(head) {
			break
		}
		k := j
		for k < len(head) && !isSpaceRE(head[k]) {
			k++
		}
		if n == len(f) {
			return ""
		}
		f[n], n = head[j:k], n+1
		j = k
	}
	if n == 3 && isBDF(f[1]) {
		return f[2]
	}
	return ""
}

func (st *logState) binding(driver, addr string, line int) *Binding {
	key := [2]string{driver, addr}
	if i, ok := st.bindings[key]; ok {
		return &st.lg.Bindings[i]
	}
	if len(st.lg.Bindings) >= maxBindings {
		return nil
	}
	st.lg.Bindings = append(st.lg.Bindings, Binding{Driver: driver, PCIAddress: addr, Line: line})
	st.bindings[key] = len(st.lg.Bindings) - 1
	return &st.lg.Bindings[len(st.lg.Bindings)-1]
}

func (st *logState) name(dev, module string, line int) {
	for _, n := range st.lg.RDMANames {
		if n.Device == dev {
			return
		}
	}
	if len(st.lg.RDMANames) < maxBindings && dev != "" {
		st.lg.RDMANames = append(st.lg.RDMANames, Name{Device: dev, Module: module, Line: line})
	}
}

func appendNew(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	if len(s) >= 16 {
		return s
	}
	return append(s, v)
}

func num(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
