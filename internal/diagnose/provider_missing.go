package diagnose

import (
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// privateRE is the dynamic loader's refusal of a provider built against
// another libibverbs: "version `IBVERBS_PRIVATE_22' not found (required by
// …/libmlx4-rdmav2.so)", in libibverbs' "couldn't load driver" warning.
var privateRE = regexp.MustCompile("version [`']?(IBVERBS_PRIVATE_\\d+)'? not found")

// checkProviderMissing flags RDMA devices libibverbs cannot open for lack
// of a userspace provider: ibv_devinfo's "no userspace device-specific
// driver found", "couldn't open config directory" (no provider is
// configured at all) and a provider that does not support the kernel's ABI.
//
// Severity: error when verbs then sees no device (nothing can use RDMA);
// warning when it still lists devices (the others are invisible to
// applications).
func checkProviderMissing(v view) Result {
	var r Result
	msgs := v.messages(msgProviderMissing, msgProviderConfig, msgABIMismatch)
	probs := v.abiProblems()
	logged := v.logEvents(record.LogUserspaceProvider)
	if len(msgs) == 0 && len(probs) == 0 && len(logged) == 0 {
		if s := v.readOf("ibv_devinfo", "ibv_devices"); s != nil {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: s.ID + " printed no missing-provider warning"})
		} else {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "neither ibv_devinfo nor ibv_devices was read, so whether libibverbs loads its providers cannot be judged"})
		}
		return r
	}
	var ev []Evidence
	config, abi, missing, private := false, len(probs) > 0, false, ""
	for _, msg := range msgs {
		ev = append(ev, messageFact(msg))
		switch msg.Kind {
		case msgProviderConfig:
			config = true
		case msgABIMismatch:
			abi = true
		default:
			missing = true
			if m := privateRE.FindStringSubmatch(msg.Text); m != nil && private == "" {
				private = m[1]
			}
		}
	}
	for _, p := range probs {
		ev = append(ev, Evidence{Fact: p.Msg, Source: p.Source})
	}
	for _, e := range logged {
		ev = append(ev, logEvidence(e)...)
		if strings.Contains(e.Text, "kernel ABI") {
			abi = true
		} else {
			missing = true
			if m := privateRE.FindStringSubmatch(e.Text); m != nil && private == "" {
				private = m[1]
			}
		}
	}
	empty, emptyEv, _ := v.verbsEmpty()
	sev := Warning
	if empty {
		sev = Error
		ev = append(ev, emptyEv...)
	}
	msg := "libibverbs cannot load a userspace provider for a device"
	expl := "The kernel has RDMA devices (their uverbs nodes exist), but libibverbs found no userspace provider library for them, so verbs applications do not see them. rdma-core is not installed, too old for the driver, or installed without its providers package."
	fix := "Install rdma-core's userspace providers (Debian/Ubuntu: ibverbs-providers; RHEL/SLES: libibverbs with rdma-core) at a release that knows the device's driver, from the same source as the kernel or vendor stack, then run ibv_devinfo again."
	switch {
	case private != "":
		msg = "the libibverbs loaded is not the one the providers were built for (" + private + " not found)"
		expl = "The provider libraries need the private symbol version " + private + " from libibverbs.so.1, and the libibverbs the program loaded does not export it: each rdma-core build exports the symbols its providers use under the version IBVERBS_PRIVATE_<N>, N its provider ABI, so a provider loads only with a libibverbs of the same provider ABI. Another copy of libibverbs (bundled with an application or image, or earlier in LD_LIBRARY_PATH; the warning names its path) shadows the system one, so no provider loads and verbs sees no device through it."
		fix = "Make the program load the libibverbs.so.1 of the same rdma-core as the providers: remove the bundled copy the warning names from the library path (LD_LIBRARY_PATH, the image's lib folders) or install the providers of its own build; then run ibv_devinfo again in the same environment."
	case config:
		msg = "libibverbs has no provider configuration (/etc/libibverbs.d missing)"
		expl = "libibverbs reads its providers from /etc/libibverbs.d (older rdma-core) and found that folder missing: no userspace provider is installed or configured, so verbs sees no device even where the kernel has one."
	case abi && !missing:
		msg = "the libibverbs provider does not support the kernel's ABI"
		expl = "libibverbs loaded a provider for the device, but the provider and the kernel driver speak different ABI versions, so the device is left out. The userspace rdma-core and the kernel come from different releases (a vendor stack beside an inbox kernel, or an image built against other headers)."
		fix = "Install the rdma-core that matches the running kernel (or the vendor stack's own), so that libibverbs and its providers support the kernel's uverbs ABI; then run ibv_devinfo again."
	}
	r.Findings = append(r.Findings, Finding{
		Severity: sev, Subject: "host",
		Message: msg, Explanation: expl, Fix: fix, Evidence: ev,
	})
	return r
}
