package diagnose

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// uverbsRE is the verbs character device of an RDMA device:
// /dev/infiniband/uverbsN (ib_uverbs; Documentation/infiniband/user_verbs.rst).
var uverbsRE = regexp.MustCompile(`^uverbs\d+$`)

// checkDeviceAccess flags RDMA devices that user space here cannot open,
// the way RDMA fails in a container that was not given the devices:
//
//   - ibv_devinfo printed "Failed to open device": libibverbs listed a
//     device (it found its sysfs entry) but ibv_open_device could not open
//     its /dev/infiniband/uverbsN, which is missing in the container (rdma-
//     core before v20 still listed such devices) or refused (the device
//     cgroup, the file's mode), or the provider could not open it;
//   - the listing of /dev/infiniband has fewer uverbs files than the RDMA
//     devices this namespace lists, or none: libibverbs (rdma-core v20
//     on, "verbs: Do not add device whose uverbs device is not accessible")
//     leaves such devices out, so applications never see them;
//   - the RDMA subsystem is in exclusive network namespace mode and this
//     namespace lists no RDMA device: a device is seen only in the namespace
//     it was moved to (rdma system set netns exclusive; rdma-cni).
//
// userspace-no-device reports libibverbs seeing none while the kernel has
// some, and no-rdma-device a host with RoCE adapters and no device; this
// check names the access a container or the host's files lack.
//
// Severity: error when no device can be opened here (every open failed,
// no uverbs file for any listed device); warning when some can and others
// cannot (an application that picks a device by default may pick one it
// cannot open), and for exclusive mode with no device in this namespace.
func checkDeviceAccess(v view) Result {
	h := v.h
	var r Result
	listing := v.readOf("dev-infiniband")
	devinfo := v.readOf("ibv_devinfo")
	if listing == nil && devinfo == nil && h.RDMASystem == nil {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "neither ibv_devinfo, a listing of /dev/infiniband nor rdma system was read, so whether user space here can open the RDMA devices is not known"})
		return r
	}
	var kernel, opened []string // devices the kernel lists here; devices ibv_devinfo opened
	for i := range h.Devices {
		d := &h.Devices[i]
		if listedHere(d) != "" {
			kernel = append(kernel, d.Name)
		}
		if openedByDevinfo(d) {
			opened = append(opened, d.Name)
		}
	}
	found := false

	// ibv_devinfo could not open a device it listed.
	if fails := v.messages("open-failed"); len(fails) > 0 {
		n := 0
		var ev []Evidence
		for _, msg := range fails {
			n += max(msg.Count, 1)
			ev = append(ev, messageFact(msg))
		}
		f := Finding{Severity: Error, Subject: "host", Evidence: ev}
		if len(opened) > 0 {
			f.Severity = Warning
			f.Message = fmt.Sprintf("ibv_devinfo could open %s but not %d other RDMA device(s) it lists (\"Failed to open device\")", strings.Join(opened, ", "), n)
		} else {
			f.Message = fmt.Sprintf("ibv_devinfo could not open the RDMA device(s) it lists (\"Failed to open device\" ×%d)", n)
		}
		for _, name := range opened {
			ev = append(ev, Evidence{Fact: "ibv_devinfo opened " + name + " and printed its attributes", Source: devinfoSource(v.device(name))})
		}
		f.Evidence = ev
		f.Explanation = "libibverbs found these devices in sysfs, but ibv_open_device could not open their /dev/infiniband/uverbsN: in a container the file was not passed in (a device plugin or runtime gives a pod only the devices it allocated; rdma-core before v20 still listed the others), or opening it was refused (the container's device cgroup, the file's mode), or the provider could not open the device. A verbs application that picks a device it cannot open fails."
		f.Fix = "In a container, request the RDMA device from its device plugin (rdma/<resource>, or an SR-IOV VF with isRdma) or pass /dev/infiniband/uverbsN (docker run --device), and point the application at the devices it was given (NCCL_IB_HCA, UCX_NET_DEVICES, Open MPI's btl_openib_if_include); check ls -l /dev/infiniband shows uverbsN readable and writable for the user; rdma-core v20 and later list only the devices whose uverbs file is there."
		r.Findings = append(r.Findings, f)
		found = true
	}

	// The listing of /dev/infiniband against the devices listed here.
	if listing != nil {
		var uverbs []string
		var cdev []Evidence
		for _, c := range h.CharDevices {
			if uverbsRE.MatchString(c.Name) {
				uverbs = append(uverbs, c.Name)
				cdev = append(cdev, Evidence{Fact: "/dev/infiniband/" + c.Name + modeSuffix(c.Mode), Source: c.Source, Line: c.Line})
			}
		}
		what := "/dev/infiniband has " + plural(len(uverbs), "uverbs file") + listedNames(uverbs)
		if listing.Reason != "" && len(h.CharDevices) == 0 {
			what = listing.Reason
		}
		listed := Evidence{Fact: what, Source: listing.ID}
		switch {
		case len(kernel) > 0 && len(uverbs) == 0:
			r.Findings = append(r.Findings, Finding{
				Severity: Error, Subject: "host",
				Message:     fmt.Sprintf("no /dev/infiniband/uverbs file for the RDMA device(s) %s: no verbs application here can open them", strings.Join(kernel, ", ")),
				Explanation: "Verbs opens an RDMA device through its character device /dev/infiniband/uverbsN. Here the RDMA devices are listed (sysfs, rdma link or their listing) but none of their uverbs files is present: a container that was given the network namespace's devices but not their character devices, or ib_uverbs not loaded on the host. libibverbs (rdma-core v20 on) leaves such devices out of its list.",
				Fix:         "In a container, request the device from the RDMA device plugin or pass /dev/infiniband/uverbsN (and rdma_cm for librdmacm) into it; on the host, load ib_uverbs (modprobe ib_uverbs); then ls -l /dev/infiniband and ibv_devices again.",
				Evidence:    append(kernelEvidence(v, kernel), listed),
			})
			found = true
		case len(uverbs) > 0 && len(uverbs) < len(kernel):
			missing := notIn(kernel, verbsListed(h))
			msg := fmt.Sprintf("%s for %s: user space here cannot open the others", plural(len(uverbs), "uverbs file"), plural(len(kernel), "RDMA device"))
			if len(missing) > 0 && len(missing) < len(kernel) {
				msg = fmt.Sprintf("%s for %s: %s has none here and cannot be opened", plural(len(uverbs), "uverbs file"), plural(len(kernel), "RDMA device"), strings.Join(missing, ", "))
			}
			r.Findings = append(r.Findings, Finding{
				Severity: Warning, Subject: "host",
				Message:     msg,
				Explanation: "Each RDMA device is opened through its own /dev/infiniband/uverbsN. The namespace lists more RDMA devices than there are uverbs files: the container was given only some of the devices' character devices (as device plugins do, one resource at a time), so libibverbs lists only those, and a program that names another device, or enumerates devices from sysfs, fails on it.",
				Fix:         "Use the devices this container was given (ibv_devices lists them; set NCCL_IB_HCA or UCX_NET_DEVICES to them), or request the others from the device plugin or pass their /dev/infiniband/uverbsN in.",
				Evidence:    append(append(kernelEvidence(v, kernel), listed), cdev...),
			})
			found = true
		default:
			text := fmt.Sprintf("%s for %s listed here", what, plural(len(kernel), "RDMA device"))
			if len(kernel) == 0 {
				text = what + "; no RDMA device is listed here"
			}
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: text, Evidence: []Evidence{listed}})
		}
	}

	// Exclusive network namespace mode and no device in this namespace.
	if s := h.RDMASystem; s != nil {
		ev := Evidence{Fact: "rdma system: netns " + s.Netns, Source: s.From}
		switch {
		case s.Netns == "exclusive" && len(h.Devices) == 0:
			r.Findings = append(r.Findings, Finding{
				Severity: Warning, Subject: "host",
				Message:     "the RDMA subsystem is in exclusive network namespace mode and no RDMA device is in this namespace",
				Explanation: "In exclusive mode an RDMA device is visible only in the network namespace it was moved to (rdma dev set <dev> netns <ns>; rdma-cni does it for a pod's SR-IOV interface); in shared mode, the default, every namespace sees every device. This namespace has none moved into it.",
				Fix:         "Move the device into this namespace (rdma-cni chained after the SR-IOV CNI, or rdma dev set <dev> netns <ns> on the host), or, for the RDMA shared device plugin, which needs it, return the host to shared mode (rdma system set netns shared with no other network namespace present, or ib_core netns_mode=1 at boot).",
				Evidence:    []Evidence{ev},
			})
			found = true
		default:
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "rdma system: netns " + s.Netns, Evidence: []Evidence{ev}})
		}
	}

	if !found && devinfo != nil && len(r.Notes) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: devinfo.ID + " opened every RDMA device it lists"})
	}
	return r
}

// listedHere is a source that lists the device as the host (or the
// container) has it now: sysfs, rdma, a listing of /sys/class/infiniband,
// ibdev2netdev and the like, not libibverbs' own tools and not the kernel
// log, which may speak of a device of an earlier boot or another
// namespace. "" when none does.
func listedHere(d *record.RDMADevice) string {
	for _, k := range slices.Sorted(maps.Keys(d.From)) {
		src := sourceOnly(d.From[k])
		if strings.HasPrefix(src, "cmd/ibv_devinfo") || strings.HasPrefix(src, "cmd/ibv_devices") || strings.HasPrefix(src, "device name prefix") {
			continue
		}
		if t, ok := source.Of(source.ID(src)); ok && t.Name == "kernel-log" || !ok && !strings.HasPrefix(src, "sys/") {
			continue
		}
		return src
	}
	return ""
}

// openedByDevinfo reports whether ibv_devinfo printed the device's block,
// which it does only for a device it opened.
func openedByDevinfo(d *record.RDMADevice) bool {
	for _, src := range d.From {
		if strings.HasPrefix(src, "cmd/ibv_devinfo") {
			return true
		}
	}
	return false
}

// devinfoSource is the ibv_devinfo source that printed a device's block.
func devinfoSource(d *record.RDMADevice) string {
	if d == nil {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(d.From)) {
		if src := d.From[k]; strings.HasPrefix(src, "cmd/ibv_devinfo") {
			return sourceOnly(src)
		}
	}
	return ""
}

// verbsListed names the devices libibverbs' tools listed.
func verbsListed(h *record.Host) []string {
	var out []string
	for i := range h.Devices {
		for _, src := range h.Devices[i].From {
			if strings.HasPrefix(src, "cmd/ibv_devinfo") || strings.HasPrefix(src, "cmd/ibv_devices") {
				out = append(out, h.Devices[i].Name)
				break
			}
		}
	}
	return out
}

func notIn(all, some []string) []string {
	var out []string
	for _, a := range all {
		if !slices.Contains(some, a) {
			out = append(out, a)
		}
	}
	return out
}

func kernelEvidence(v view, names []string) []Evidence {
	var ev []Evidence
	for _, n := range names {
		if d := v.device(n); d != nil {
			ev = append(ev, Evidence{Fact: "this namespace lists RDMA device " + n, Source: listedHere(d)})
		}
	}
	return ev
}

func modeSuffix(mode string) string {
	if mode == "" {
		return ""
	}
	return " (" + mode + ")"
}

func listedNames(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ", ") + ")"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
