package collect

import (
	"path"
	"strings"

	"github.com/rocekb/rocekb/internal/flint"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/sysfs"
)

// flint reads each flint or mstflint query the snapshot holds. A query of
// a PCI function completes that adapter, each field only when no earlier
// source gave it: the running firmware, the image in flash when it
// differs, the PSID and (from "query full") the part number. A query of
// an mst device (/dev/mst/mt4119_pciconf0) names no PCI function, so it
// joins the host's firmware device table, until mst status places it
// (placeMstNodes).
func (c *collector) flint() {
	row, _ := source.Of(source.ID("sos_commands/mellanox_firmware/flint_-d_0000_01_00.0_q"))
	c.eachGlobbed(row, func(p string, r snapshot.Result) {
		c.parse(p, func() error {
			out, err := flint.Parse(reader(r))
			if err != nil {
				return err
			}
			if len(out.Queries) == 0 && len(out.Messages) > 0 {
				c.fail(p, out.Messages[0])
			}
			for _, q := range out.Queries {
				dev := q.Device
				if dev == "" {
					dev = flintDevice(path.Base(p))
				}
				c.flintQuery(p, dev, q)
			}
			return nil
		})
	})
}

func (c *collector) flintQuery(id, dev string, q flint.Query) {
	if addr := pciAddress(dev); addr != "" {
		a := c.adapter(addr)
		fill(&a.Firmware.Running, q.Running(), &a.From, "firmware.running", id)
		if a.Firmware.Running == q.Running() {
			fill(&a.Firmware.Stored, q.Stored(), &a.From, "firmware.stored", id)
		}
		fill(&a.Firmware.PSID, q.PSID, &a.From, "firmware.psid", id)
		fill(&a.PartNumber, q.PartNumber, &a.From, "part_number", id)
		return
	}
	if dev == "" && q.PSID == "" {
		return // nothing to name it by
	}
	c.h.FirmwareDevices = append(c.h.FirmwareDevices, record.FirmwareDevice{
		Name: dev, PartNumber: q.PartNumber, Description: q.Description, PSID: q.PSID, BaseGUID: q.BaseGUID,
		FWCurrent: q.FWVersion, FWRunning: q.FWRunning, Source: id, Line: q.Line,
	})
}

// flintDevice is the -d argument of a query file's name, as sos mangles
// it: "flint_-d_0000_08_00.0_q" → "0000_08_00.0", and
// "flint_-d_.dev.mst.mt4119_pciconf0_q" → "/dev/mst/mt4119_pciconf0".
func flintDevice(name string) string {
	_, rest, ok := strings.Cut(name, "_-d_")
	if !ok {
		return ""
	}
	for _, suffix := range []string{"_q_full", "_query", "_q"} {
		if d, ok := strings.CutSuffix(rest, suffix); ok {
			// sos turned each "/" into "."; an mst device's own name may
			// hold a dot (mt41686_pciconf0.1), so only the folders return.
			if m, ok := strings.CutPrefix(d, ".dev.mst."); ok {
				return "/dev/mst/" + m
			}
			return d
		}
	}
	return ""
}

// pciAddress reads a device argument as a PCI function: "0000:08:00.0",
// sos's mangled "0000_08_00.0", or the short "08:00.0" (domain 0).
func pciAddress(dev string) string {
	d := strings.ToLower(strings.ReplaceAll(dev, "_", ":"))
	if len(d) == 7 {
		d = "0000:" + d
	}
	if sysfs.IsPCIAddress(d) {
		return d
	}
	return ""
}
