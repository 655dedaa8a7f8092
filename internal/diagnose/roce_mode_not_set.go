package diagnose

import (
	"strings"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// checkRoCEModeNotSet flags hosts where setting the RDMA_CM default RoCE
// mode failed: configfs rdma_cm could not be created (configfs not mounted,
// rdma_cm not loaded, or a container without the permission), or a write of
// default_roce_mode failed. rxe_cfg prints both (mkdir's and tee's errors,
// which name the configfs path); so do the scripts that follow the
// distributions' guides. rxe_cfg's "sh: echo: I/O error" lines are not
// among them: they are its echo of an interface name into rdma_rxe's add
// parameter (write-error), which no-rdma-device reads.
//
// Severity: warning. RDMA_CM then uses the kernel's default mode for the
// port, which may not be the one the set-up wanted (RoCE v1 peers, or a
// network that expects v2).
func checkRoCEModeNotSet(v view) Result {
	var r Result
	msgs := v.messages(msgConfigfsError)
	if len(msgs) == 0 {
		switch {
		case v.readOf("rxe_cfg") != nil:
			n := Note{Subject: "host", Status: Pass, Text: "rxe_cfg printed no configfs error"}
			if adds := v.messages(msgWriteError); len(adds) > 0 {
				n.Text += "; its failed echo lines are writes of an interface name to rdma_rxe's add (or remove) parameter, not of the RoCE mode"
				for _, m := range adds {
					n.Evidence = append(n.Evidence, messageFact(m))
				}
			}
			r.Notes = append(r.Notes, n)
		case v.source(source.RDMACM) != nil && v.source(source.RDMACM).Status == record.StatusOK:
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "configfs rdma_cm was read"})
		default:
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "neither configfs rdma_cm nor a tool that sets the RoCE mode (rxe_cfg) was read, so whether the mode could be set cannot be judged"})
		}
		return r
	}
	var ev []Evidence
	var devs []string
	noDir := false
	for _, msg := range msgs {
		ev = append(ev, messageFact(msg))
		if msg.Device != "" {
			devs = appendOnce(devs, msg.Device)
		}
		if strings.Contains(msg.Text, "Operation not permitted") || strings.Contains(msg.Text, "rdma_cm':") || strings.Contains(msg.Text, "rdma_cm\":") {
			noDir = true
		}
	}
	subject := "host"
	if len(devs) == 1 {
		subject = devs[0]
	}
	expl := "A tool tried to set the RDMA_CM default RoCE mode through configfs (/sys/kernel/config/rdma_cm/<device>/ports/<n>/default_roce_mode) and the write failed, so connections made through RDMA_CM use the kernel's default mode for the port, not the one asked for."
	if noDir {
		expl = "configfs rdma_cm could not be created: configfs is not mounted, the rdma_cm module is not loaded, or (in a container) the process lacks the permission. Without it the RDMA_CM default RoCE mode cannot be set, so connections made through RDMA_CM use the kernel's default mode for the port."
	}
	r.Findings = append(r.Findings, Finding{
		Severity: Warning, Subject: subject,
		Message:     "the RDMA_CM default RoCE mode could not be set: " + clip(msgs[0].Text, 120),
		Explanation: expl,
		Fix:         "Load rdma_cm (modprobe rdma_cm), mount configfs (mount -t configfs none /sys/kernel/config), create the device folder (mkdir /sys/kernel/config/rdma_cm/<device>) and write the mode (echo \"RoCE v2\" > …/ports/1/default_roce_mode), as root on the host, not inside an unprivileged container.",
		Evidence:    ev,
	})
	return r
}
