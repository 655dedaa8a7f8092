package dmesg

import (
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/need"
)

// Failure kinds of the kernel log and of user-space messages in a
// journal or syslog file. Each is what a message is, read from the format
// strings of the kernel and rdma-core that print it, not from sample
// lines: a firmware command that timed out, a hardware queue or port that
// could not be set up, a GID that could not be written, and so on.
const (
	CommandTimeout    = "command-timeout"    // a firmware command timed out, or firmware stalled (pre-init, no response)
	QueueFailure      = "queue-failure"      // a hardware queue (EQ, CQ, NQ, CQP, cmdq …) or a port could not be created, opened or queried
	GIDError          = "gid-error"          // a GID could not be added to or updated in the GID table
	RoCEDisabled      = "roce-disabled"      // the provider refused or disabled RoCE when it probed the function
	ResourceExhausted = "resource-exhausted" // memory, pages or another resource ran out
	ResetRecovery     = "reset-recovery"     // the device was reset, or the driver entered error recovery
	UserspaceProvider = "userspace-provider" // libibverbs could not load or use a provider (missing, or the kernel ABI refused)
	MRFailure         = "mr-failure"         // a user memory region could not be pinned or registered (ibv_reg_mr failed in the kernel)
)

// Patterns of the failure kinds, each tried only on lines of RDMA
// speakers (providers, their Ethernet and core drivers, the RDMA core,
// ULPs). Sources of the wording, all as printed by the kernel:
//   - mlx5 health.c: "synd 0x%x: %s" with "irisc not responding" (the
//     firmware's processor stopped);
//   - mlx5 cmd.c: "%s(0x%x) timeout. Will cause a leak of a command
//     resource", "cmd[%d]: %s(0x%x) Async, timeout", "%s(0x%x) No done
//     completion", "%s(0x%x) canceled on out of queue timeout"; main.c
//     "Firmware over %d MS in pre-initializing state, aborting";
//   - bnxt_en bnxt_hwrm.c: "Error (timeout: %u) msg {0x%x 0x%x} len:%d",
//     "hwrm req_type 0x%x seq id 0x%x error 0x%x"; bnxt.c "hwrm_ring_free
//     type %d failed. rc:%x err:%x" (a firmware command named by its
//     function) and, from its TX watchdog, "TX timeout detected, starting
//     reset task!"; bnxt_re qplib_rcfw.c
//     "cmdq[%#x]=%#x timedout (%d)msec" and, for a command the firmware
//     answered with an error, "cmdq[%#x]=%#x status %#x";
//   - qed_mcp.c: "The MFW failed to respond to command 0x%08x";
//   - mana hw_channel.c: "HWC: Request timed out!";
//   - ib_core cache.c: "%s: unable to add gid %pI6 error=%d"; mlx5_ib
//     "add_roce_gid GID add failed port=%d index=%d";
//   - bnxt_re main.c: "%s: probe error: RoCE is not supported on this device",
//     "Failed to free HW ring:%d :%#x";
//   - ice ice_main.c: "RDMA is not supported on this device"; ice_common.c
//     (ice_recalc_port_limited_caps, a device of more than four ports):
//     "RDMA functionality is not available with the current device
//     configuration.";
//   - irdma utils.c: "[%s Error][op_code=%d] status=%d waiting=%d
//     completion_err=%d maj=0x%x min=0x%x";
//   - erdma main.c: "ERROR: err code = %d, cmd of query capibility failed.";
//   - ib_core cache.c: "ib_query_port failed (%d)", "ib_query_pkey failed
//     (%d) for index %d" (before 5.x "… failed (%d) for %s", and
//     "ib_query_gid failed (%d) for %s (index %d)");
//   - efa efa_com.c: "The device didn't send any completion for admin cmd
//     %s(%d) status %d …"; irdma hw.c: "cqp opcode = 0x%x maj_err_code =
//     0x%x min_err_code = 0x%x" (a CQP command completed with an error);
//   - mlx4 catas.c: "device is going to be reset"; mlx5 health.c
//     "Driver is in error state. Unloading" (no recovery within the
//     fw_fatal reporter's grace period: the function is unloaded).
var (
	timeoutRE = need.MustCompile(`(?i)\b(?:cmd|command|cmdq|cqp|mailbox|mbox|hwrm|hwc|mfw|mcp|fw|firmware|admin ?q(?:ueue)?|aq|ccq|creq|rcfw|req_type)\b.{0,80}?(?:\btime ?out\b|\btimed ?out\b|\btimeout\b|\bstall(?:ed)?\b|\bnot respond|\bfailed to respond|\bno (?:done )?completion|\bnot ready\b)` +
		`|\b[A-Z][A-Z0-9_]{2,}\(0x[0-9a-fA-F]+\).{0,40}(?:timeout|No done completion|canceled on out of queue)` +
		`|Error \(timeout: \d+\) msg|\bpre-initializing state|Firmware over \d+ ?MS|\bwait_func\w*|waiting for (?:the )?(?:fw|firmware)\b.{0,30}(?:timeout|timed out)` +
		`|\b(?:cmdq|cqp|mailbox|mbox)\b.{0,30}\bbusy\b|\birisc not responding\b|\bdidn't send any completion for admin cmd\b`)
	// cqpRE is irdma utils.c's "[%s Error][op_code=%d] status=%d waiting=%d …".
	cqpRE     = regexp.MustCompile(`\[[\w ]+ Error\]\[op_code=\d+\] status=(-?\d+)`)
	cmdFailRE = need.MustCompile(`(?i)\(0x[0-9a-f]+\) op_mod\(0x[0-9a-f]+\) failed, status|failed, status .*syndrome|\bcmd_exec\b|command failed|\bcmdq\[[^\]]*\]=0x[0-9a-f]+ status 0x[0-9a-f]+` +
		`|\berr code = -?\d+, cmd of\b|\bfailed to (?:free|alloc\w*) (?:hw|fw) (?:ring|stats ?ctx|ctx)\b` +
		`|hwrm req_type 0x[0-9a-f]+ seq id 0x[0-9a-f]+ error|\bcmd error\]` +
		`|\bfailed to (?:process|execute|exec|run|send|post|issue) (?:the )?(?:admin )?(?:command|cmd)\b` +
		`|\bcqp opcode = 0x[0-9a-f]+ maj_err_code = 0x[0-9a-f]+|\b\w+Output: -\d+, status=0x[0-9a-f]+|\bMLX[45]_CMD_\w+\b.{0,160}\bstatus\b|\bfailed[.,]? status -?\d+|\b(?:firmware|fw)\b.{0,30}\b(?:query|command|cmd)\b.{0,10}\bfailed\b`)
	// cmdSendRE is a command channel failing, tried after the queue kinds:
	// "Create CQP failed" is a queue that could not be created.
	cmdSendRE = need.MustCompile(`(?i)\b(?:mailbox|mbox|cmq|cmdq|cqp|hwrm(?:_\w+)?|hwc)\b.{0,40}\b(?:fail|failed|error|err)\b` +
		`|\bfailed to (?:send|post|exec\w*|issue) (?:\w+ )?(?:cmd|command|mailbox|mbox|message)` +
		`|\b(?:free|dealloc|destroy|query|alloc) (?:hw )?(?:mw|mr|pd|ah)\b.{0,10}\bfailed\b`)
	queueRE = need.MustCompile(`(?i)\b(?:fail(?:ed|ure)?|unable|couldn't|could not|cannot|can't|error|err)\b[^.;]{0,40}?\b(?:to )?(?:create|alloc(?:ate)?|init(?:iali[sz]e)?|set ?up|enable|open|register|request|start)\b[^.;]{0,30}?\b(?:[acn]?eqs?|cqs?|srqs?|nqs?|creq|cmdq|cmq|cqp|ccq|ceqs?|aeqs?|hwc|hardware channel|rcfw|mailbox|command (?:interface|queue)|event queues?|completion queues?|notification queues?|admin queues?|port \d+|ports?|doorbells?|uars?|dpis?|msi-?x|irqs?|vectors?)\b` +
		`|\b(?:create|alloc(?:ate)?|init|setup|open|request|destroy)_?\w*?[ _](?:[acn]?eqs?|cqs?|srqs?|nqs?|wqs?|creq|cmdq|cmq|cqp|ccq|ceqs?|aeqs?|hwc|rcfw|port|irqs?|uar|td|pd|tir|tis|rqt|mkey)\w*\b[^.;]{0,40}?\b(?:fail(?:ed|ure)?|error|err)\b` +
		`|\b(?:cmd|command|event|completion|admin|notification|work|control) ?queue\b.{0,20}\b(?:init\w*|creat\w*|alloc\w*|setup)\b.{0,20}\b(?:fail\w*|error)\b` +
		`|\b(?:hardware|hw|device) initiali[sz]ation (?:failed|error)\b|\bfailed to destroy (?:\w+ )?(?:wq|cq|eq|qp|srq)\b`)
	gidRE      = need.MustCompile(`(?i)unable to add gid|\bgid add failed|\bfailed to (?:add|set|update|modify|del(?:ete)?|write|query) (?:the )?(?:roce )?gid|\b(?:add|set|del|update|modify|query)_?(?:roce_)?gid\w*\b.{0,40}\b(?:fail(?:ed)?|error|err)\b|\bgid table\b.{0,40}\b(?:fail(?:ed)?|full|error|err|no (?:free|room|space))|\bset_roce_address\b.{0,60}failed`)
	roceOffRE  = need.MustCompile(`(?i)\broce (?:is )?(?:not supported|disabled|not enabled|isn't (?:supported|enabled)|unsupported|cap(?:ability)? (?:is )?(?:not set|disabled|off))|\b(?:disabl\w+|not support\w*|unsupported) roce\b|\brdma (?:functionality )?(?:is )?(?:disabled|not (?:supported|enabled|available))\b|\broce_?en(?:able)?d? ?(?:=|is) ?(?:0|false|no)\b|\bno roce\b|\bskipping roce\b`)
	resourceRE = need.MustCompile(`(?i)\bfailed to allocate (?:a )?(?:command|cmd) entry\b|\berr(?:or|no)?\s*[=:(]?\s*-12\b|\bout of memory\b|\bENOMEM\b|\bpage allocation failure\b|\bno (?:free|more|available) (?:\w+ )?(?:resources?|entries|memory|pages|slots|indexes|indices|qps?|cqs?|mrs?|pds?|vectors?|irqs?)\b|\b(?:resources?|pages|memory) (?:are |is )?exhausted\b|\binsufficient (?:resources|memory|pages|msi-?x)\b|\breached (?:the )?(?:max(?:imum)?|limit)\b|\bfailed to allocate (?:\d+ )?(?:fw |firmware )?pages\b|\bgive_pages\b.{0,40}\bfail|\bexceeds? (?:the )?(?:max(?:imum)?|limit)\b|\btoo many (?:qps|cqs|mrs|pds|ahs|srqs|resources)\b`)
	// mrRE is a provider refusing a user memory registration, in the
	// wordings of its reg_user_mr: vmw_pvrdma pvrdma_mr.c "could not get
	// umem for mem region", "invalid mem region length", "overflow %d
	// pages in mem region", "could not register mem region, error: %d";
	// mlx5_ib mr.c "umem get failed (%ld)" (mlx5_ib_dbg upstream,
	// mlx5_ib_warn in MLNX_OFED's); rdma_rxe rxe_mr.c "err %d from
	// rxe_umem_get", since 2021 "%s: Unable to pin memory region err =
	// %d". Tried after resourceRE: an errno of -12 says memory ran out.
	mrRE    = need.MustCompile(`(?i)\bcould not get umem for mem region\b|\binvalid mem region length\b|\boverflow -?\d+ pages in mem region\b|\bcould not register mem region, error: -?\d+|\bumem get failed \(-?\d+\)|\berr -?\d+ from rxe_umem_get\b|\bunable to pin memory region err = -?\d+`)
	resetRE = need.MustCompile(`(?i)\b(?:fw|firmware|device|function|chip|hw|hardware|core|pci|flr|global|func|hot) ?reset\b|\breset (?:request(?:ed)?|start(?:ed)?|done|complete(?:d)?|fail(?:ed)?|in progress|initiated)\b|\bresetting\b|\breset process\b|\breset task\b|\bgoing to be reset\b|\brequesting a reset\b|\berror recovery\b|\brecover(?:y|ing)\b.{0,40}\b(?:device|fw|firmware|health|pci|function|start|done|fail)|\bhealth recovery\b|err_detected\b|\bpci (?:channel )?(?:error|io error|offline)\b|\bcrdump\b|\bsync_reset\b|\bfatal (?:error|state|event)\b.{0,40}\b(?:reset|recover)|\bdriver is in error state\b`)
)

// failureKind returns the failure kind of a message of an RDMA speaker,
// or "". Command timeouts come before command failures (a timed out
// command also "failed"), both before queue failures (a failed CREATE_EQ
// is a command failure first), and resource exhaustion and reset last.
// p is the message after its speaker; each literal test reads the
// message's one scan.
func failureKind(p part) string {
	rest := p.s
	switch {
	case p.has(wOpCode) && strings.Contains(rest, " Error][op_code=") && cqpRE.MatchString(rest):
		// irdma's CQP report names the operation ("[Create QP Error]"):
		// the command failed, or its wait timed out (-ETIMEDOUT, -ETIME).
		if st := cqpRE.FindStringSubmatch(rest)[1]; st == "-110" || st == "-62" {
			return CommandTimeout
		}
		return CommandError
	case p.hasAny(timeoutIDs) && p.match(timeoutRE):
		return CommandTimeout
	case p.hasAny(cmdFailIDs) && p.match(cmdFailRE):
		return commandKind(rest)
	case isCoreQuery(p):
		// The RDMA core could not read a port's attributes, P_Keys or
		// GIDs from the provider to fill its cache: the port is not set
		// up (at registration the device is then not registered).
		return QueueFailure
	case p.has(wGID) && p.match(gidRE):
		return GIDError
	case p.has(wRoCE) || p.has(wRDMA):
		if p.match(roceOffRE) {
			return RoCEDisabled
		}
	}
	switch {
	case p.has(wQP) && p.match(qpRE):
		return QPError
	case p.hasAny(failIDs) && (queueFailed(rest, p.low()) || p.match(queueRE)):
		return QueueFailure
	case p.hasAny(cmdSendIDs) && p.match(cmdSendRE):
		return commandKind(rest)
	case !(p.has(wFailedWithError) && strings.Contains(rest, "failed with error")) && p.match(resourceRE):
		return ResourceExhausted
	case isMRFailure(p):
		return MRFailure
	case p.hasAny(resetIDs) && p.match(resetRE) && !bringUpRE.MatchString(rest):
		return ResetRecovery
	}
	return ""
}

// bringUpRE is a reset a driver reports as a step of bringing its chip
// and port up, not a reset of a running device; what is reset is named
// as a part the driver sets up, never the device or function itself
// ("FLR reset", "device reset", "Resetting the adapter" stay resets):
//   - the chip's registers put into a known state as the driver loads,
//     whatever the method: hfi1 chip.c init_chip, called by hfi1_init_dd
//     at probe, prints dd_dev_info "Resetting CSRs with FLR" (module
//     parameter use_flr, default 1; twice on A-step silicon) or
//     "Resetting CSRs with writes", after its comment "reset parts to
//     sane, disabled, values. We cannot depend on the chip going through
//     a power-on reset - a driver may be loaded and unloaded many times"
//     (CSRs: control and status registers);
//   - a QSFP cable module's power-up reset ending: hfi1 chip.c
//     wait_for_qsfp_init, called by bringup_serdes as the port comes up
//     and by reset_qsfp, prints dd_dev_info "%s: No IntN detected, reset
//     complete" when the module raised no interrupt (IntN, SFF-8679) in
//     its t_init window.
//
// The device's name may lead (dd_dev_info prints "hfi1_0: ").
var bringUpRE = regexp.MustCompile(`(?i)^(?:\w+: )?resetting (?:the )?(?:csrs|registers)\b|\bintn\b.{0,40}\breset complete\b`)

// queueFailed is a shortcut to one shape of queueRE's first branch, the
// commonest: "failed to create async EQ", "unable to allocate IRQs". A
// line it takes always matches queueRE; a line it does not take is tried
// against queueRE, so it changes no answer, only what the answer costs
// (queueRE's branch runs a few microseconds per line on the regexp
// package's backtracker). lower is rest in lower case; only an ASCII rest
// is taken: beyond ASCII, lower-casing and (?i) fold differently (the
// dotted capital I lowers to i, which (?i) does not match).
//
// The shape: a word of queueFails, " to ", a word of queueVerbs, then
// within 30 bytes without '.' or ';' a word of queueObjects, each word
// whole (\b at both ends).
func queueFailed(rest, lower string) bool {
	if !need.ASCII(rest) {
		return false
	}
	for _, w := range queueFails {
		for p := range need.Places(lower, w, true) {
			rest, ok := strings.CutPrefix(lower[p+len(w):], " to ")
			if !ok {
				continue
			}
			for _, v := range queueVerbs {
				if after, ok := strings.CutPrefix(rest, v); ok && (after == "" || !need.IsWordByte(after[0])) && queueObjectWithin(after, 30) {
					return true
				}
			}
		}
	}
	return false
}

// queueObjectWithin reports whether s holds a whole word of queueObjects
// starting at most n bytes in, with no '.' or ';' before it.
func queueObjectWithin(s string, n int) bool {
	for q := 1; q <= n && q < len(s); q++ {
		if s[q-1] == '.' || s[q-1] == ';' {
			return false
		}
		if need.IsWordByte(s[q-1]) {
			continue
		}
		for _, o := range queueObjects {
			if after, ok := strings.CutPrefix(s[q:], o); ok && (after == "" || !need.IsWordByte(after[0])) {
				return true
			}
		}
	}
	return false
}

// The words of queueFailed, each one of the alternatives of queueRE's
// first branch at its place.
var (
	queueFails   = []string{"failed", "failure", "fail", "unable"}
	queueVerbs   = []string{"create", "allocate", "alloc", "initialize", "initialise", "init", "setup", "set up", "enable", "open", "register", "request", "start"}
	queueObjects = []string{"eqs", "eq", "aeqs", "aeq", "ceqs", "ceq", "neqs", "neq", "cqs", "cq", "srqs", "srq", "nqs", "nq", "creq", "cmdq", "cmq", "cqp", "ccq",
		"hwc", "hardware channel", "rcfw", "mailbox", "command interface", "command queue", "event queues", "event queue", "completion queues",
		"completion queue", "notification queues", "notification queue", "admin queues", "admin queue", "ports", "port", "doorbells", "doorbell",
		"uars", "uar", "dpis", "dpi", "msix", "msi-x", "irqs", "irq", "vectors", "vector"}
)

// etimedoutRE is a failed command's errno when its wait ran out:
// -ETIMEDOUT ("failed to post mailbox 0x29 in poll mode, ret = -110.").
var etimedoutRE = regexp.MustCompile(`(?i)\b(?:ret|rc|status|err(?:or|no)?)\s*[=:]?\s*-110\b|\(-110\)`)

// commandKind is a failed command's kind: a timeout when its errno says
// the wait ran out, else a failure.
func commandKind(rest string) string {
	if strings.Contains(rest, "-110") && etimedoutRE.MatchString(rest) {
		return CommandTimeout
	}
	return CommandError
}

// isMRFailure reports whether a message is a provider refusing a user
// memory registration (mrRE).
func isMRFailure(p part) bool {
	return p.hasAny(mrIDs) && p.match(mrRE)
}

// coreQueryRE is ib_core cache.c's failed port query, in every wording.
var coreQueryRE = regexp.MustCompile(`\bib_query_(?:port|pkey|gid) failed \(-?\d+\)`)

// isCoreQuery reports whether a message, in lower case, is the RDMA
// core's failed port, P_Key or GID query (coreQueryRE).
func isCoreQuery(p part) bool {
	return p.has(wIBQuery) && coreQueryRE.MatchString(p.low())
}

// The gates of failureKind's patterns: a message that holds none of a
// pattern's words (in lower case) is not tried against it.
var (
	timeoutWords = []string{"time", "stall", "respond", "completion", "not ready", "pre-initializing", "firmware over", "wait_func", "busy"}
	cmdWords     = []string{"cmd", "command", "mailbox", "mbox", "cmq", "cqp", "hwrm", "hwc", "message"}
	failWords    = []string{"fail", "unable", "couldn't", "could not", "cannot", "can't", "error", "err"}
	resetWords   = []string{"reset", "recover", "err_detected", "pci", "crdump", "error state"}

	timeoutIDs = lits(timeoutWords...)
	cmdFailIDs = lits("status", "cmd", "command", "hwrm", "fail", "err_code")
	failIDs    = lits(failWords...)
	cmdSendIDs = lits(append(append([]string(nil), cmdWords...), "fail")...)
	resetIDs   = lits(resetWords...)
	mrIDs      = lits("umem", "mem region", "memory region")
	flashIDs   = lits("flash", "burn", "fsm")

	wOpCode          = lit(" error][op_code=")
	wIBQuery         = lit("ib_query_")
	wGID             = lit("gid")
	wRoCE            = lit("roce")
	wRDMA            = lit("rdma")
	wQP              = lit("qp")
	wFailedWithError = lit("failed with error")
	wPCIeBandwidth   = lit("available pcie bandwidth")
	wBAR             = lit("bar ")
)

// userRE are the user-space messages about RDMA that a journal or syslog
// file carries: libibverbs (rdma-core libibverbs/init.c and dynamic
// driver loading) warning that it found no provider, could not load one,
// or that a provider refused the kernel's ABI ("Driver %s does not
// support the kernel ABI of %d (supports %d to %d) for device %s").
var userRE = regexp.MustCompile(`(?i)\bno userspace device-specific driver found\b|\bcouldn't load driver\b|\bdoes not support the kernel ABI\b|\bcouldn't open config directory\b|\bcould not open (?:the )?device\b.{0,40}/dev/infiniband`)

// userEvent classifies a user-space message of a journal or syslog file:
// only libibverbs' provider failures are kept; the device is the RDMA
// device the message names (".../infiniband/mlx5_0", "uverbs0" is not
// one).
func userEvent(p pending) (Event, bool) {
	if !userRE.MatchString(p.text) {
		return Event{}, false
	}
	ev := Event{Kind: UserspaceProvider, Time: p.time, Module: p.ident, Text: cut(p.text), Line: p.line}
	ev.Device = namedDevice(p.text)
	return ev, true
}

// namedDevice returns the first RDMA device name a message holds: after
// "infiniband/" or as a word of its own.
func namedDevice(text string) string {
	for _, f := range strings.FieldsFunc(text, func(c rune) bool {
		return c == ' ' || c == ',' || c == '(' || c == ')' || c == '/' || c == '=' || c == '\'' || c == '"' || c == '[' || c == ']'
	}) {
		f = strings.TrimRight(f, ":.;")
		if isRDMAName(f) {
			return f
		}
	}
	return ""
}

// classDevice reads a device core prefix whose device is not a PCI
// function: "infiniband mlx5_0: …", "nvme nvme0: …", "scsi host5: …",
// "net eth2: …". It returns the bus or class, the device and the rest.
func classDevice(text string) (class, name, rest string, ok bool) {
	return classDeviceAt(text, strings.Index(text, ": "))
}

// classDeviceAt is classDevice given i, the index of the first ": " in
// text (-1 when none), which the speaker has found.
func classDeviceAt(text string, i int) (class, name, rest string, ok bool) {
	if i <= 0 {
		return "", "", "", false
	}
	// Two words and one space between them: no other byte may be in a
	// word, so the first space is where the class ends.
	head := text[:i]
	j := strings.IndexByte(head, ' ')
	if j < 0 || !isWord(head[:j]) || !isWord(head[j+1:]) {
		return "", "", "", false
	}
	return head[:j], head[j+1:], text[i+2:], true
}

// ulpOnRDMA reports whether a message of a generic storage or network
// speaker is about its RDMA transport: nvme-rdma prints through the nvme
// controller ("nvme nvme0: rdma connection establishment failed"), SRP
// through the SCSI host ("scsi host5: ib_srp: …"), SMB Direct through
// CIFS ("CIFS: VFS: smbd_…").
func ulpOnRDMA(module string, p part) bool {
	switch module {
	case "nvme", "nvmet", "scsi", "CIFS", "cifs", "iscsi", "nfs", "lockd", "sunrpc":
		lower := p.low()
		// nvme-rdma's own wordings name no transport: "Connect rejected:
		// status %d (%s)." (an RDMA_CM reject) and "failed to initialize
		// %s mr pool" (its MR pools).
		return strings.Contains(lower, "rdma") || strings.Contains(lower, "srp") || strings.Contains(lower, "iser") ||
			strings.Contains(lower, "smbd") || strings.Contains(lower, "smb_direct") || strings.Contains(lower, "ib_") ||
			module == "nvme" && (strings.HasPrefix(lower, "connect rejected: status") || strings.Contains(lower, " mr pool"))
	}
	return false
}

// newKind returns the kind of a message that the broad classifier adds
// to the basic ones, or "". rdma says the speaker is an RDMA one, whose
// failure kinds are read; any driver speaking about a PCI function is
// relevant for the PCIe and BAR kinds only. p is the message after its
// speaker.
func newKind(module string, kind uint8, p part, rdma bool) string {
	rest := p.s
	switch {
	case p.has(wPCIeBandwidth) && strings.Contains(rest, "available PCIe bandwidth") && strings.Contains(rest, "limited by"):
		return PCIeLimited
	case p.has(wBAR) && strings.Contains(rest, "BAR ") && barRE.MatchString(rest):
		return BARUnassigned
	case !rdma:
		return ""
	case module == "mlxfw" && ulpFailRE.MatchString(rest), p.hasAny(flashIDs) && flashRE.MatchString(rest):
		return FlashFailure
	case p.hasAny(probeIDs) && isProbeFailure(rest):
		return "" // a probe failure, whatever its errno
	}
	if p.hasAny(mismatchIDs) {
		if _, ok := MismatchOf(module, rest); ok {
			return FirmwareMismatch
		}
	}
	if kind&ulpKind != 0 {
		if ulpFailRE.MatchString(rest) {
			return ULPFailure
		}
		return ""
	}
	if k := failureKind(p); k != "" {
		return k
	}
	if p.hasAny(asyncIDs) && isAsync(rest, p.low()) {
		return AsyncError
	}
	return ""
}
