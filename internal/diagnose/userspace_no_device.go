package diagnose

import (
	"maps"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// checkUserspaceNoDevice flags a host where libibverbs says it sees no
// device ("No IB devices found") while the kernel lists RDMA devices
// (rdma link, /sys/class/infiniband, ibdev2netdev): user space cannot use
// what the kernel has, because its provider is missing or refuses the
// kernel's ABI, or the tool ran where the devices are hidden (a
// container without /dev/infiniband).
//
// Severity: error. No verbs application on the host can use RDMA.
func checkUserspaceNoDevice(v view) Result {
	h := v.h
	var r Result
	none := v.messages(msgNoDevice)
	if len(none) == 0 {
		if s := v.readOf("ibv_devinfo", "ibv_devices"); s != nil {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: s.ID + " did not say it sees no device"})
		} else {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "neither ibv_devinfo nor ibv_devices was read, so what user space sees is not known"})
		}
		return r
	}
	var names []string
	var ev []Evidence
	for _, msg := range none {
		ev = append(ev, messageFact(msg))
	}
	for i := range h.Devices {
		d := &h.Devices[i]
		src := listedByKernel(d)
		if src == "" {
			continue // a device named only by verbs itself, or by no source
		}
		names = append(names, d.Name)
		ev = append(ev, Evidence{Fact: "the kernel lists RDMA device " + d.Name, Source: sourceOnly(src)})
	}
	if len(names) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "user space sees no device, and no kernel source lists one (no-rdma-device judges that)"})
		return r
	}
	for _, p := range v.messages(msgProviderMissing, msgABIMismatch, msgProviderConfig) {
		ev = append(ev, messageFact(p))
	}
	r.Findings = append(r.Findings, Finding{
		Severity: Error, Subject: "host",
		Message:     "libibverbs sees no RDMA device while the kernel has " + strings.Join(names, ", "),
		Explanation: "The kernel registered the RDMA devices, but user space (ibv_devinfo, every verbs application) sees none: the userspace provider for their driver is missing or does not support the kernel's ABI, or the tool ran where the devices are hidden (a container without /dev/infiniband).",
		Fix:         "Read the libibverbs warnings in the quoted lines; install the rdma-core providers that match the running kernel (or the vendor stack's own), or give the container /dev/infiniband, then run ibv_devinfo again.",
		Evidence:    ev,
	})
	return r
}

// sourceOnly drops the " line N" a from value may carry.
func sourceOnly(from string) string {
	if i := strings.Index(from, " line "); i > 0 {
		return from[:i]
	}
	return from
}

// listedByKernel is a source other than libibverbs' own tools that gave a
// field of the device (rdma link, sysfs, ibdev2netdev, the kernel log), or
// "".
func listedByKernel(d *record.RDMADevice) string {
	for _, k := range slices.Sorted(maps.Keys(d.From)) {
		src := d.From[k]
		if !strings.HasPrefix(src, "cmd/ibv_devinfo") && !strings.HasPrefix(src, "cmd/ibv_devices") {
			return src
		}
	}
	return ""
}
