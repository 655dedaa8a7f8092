package collect

import (
	"strings"

	"github.com/rocekb/rocekb/internal/mlxfwmanager"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/sysfs"
)

// mlxfwmanager reads NVIDIA's firmware query. A device named by its PCI
// address completes that adapter, each field only when no earlier source
// (devlink, sysfs, ethtool) gave it; one named by an mst device
// (/dev/mst/mt4115_pciconf0) names no PCI function, so it is kept in the
// host's firmware device table until mst status places it
// (placeMstNodes).
func (c *collector) mlxfwmanager() {
	r, id, ok := c.firstCommand("mlxfwmanager --query", "mlxup --query")
	if !ok {
		return
	}
	c.parse(id, func() error {
		out, err := mlxfwmanager.Parse(reader(r))
		if err != nil {
			return err
		}
		if len(out.Devices) == 0 && len(out.Messages) > 0 {
			c.fail(id, out.Messages[0])
		}
		for _, d := range out.Devices {
			run, _ := d.FirmwareRunning()
			flash, _ := d.FirmwareFlash()
			if addr := strings.ToLower(d.PCIName); sysfs.IsPCIAddress(addr) {
				a := c.adapter(addr)
				fill(&a.Firmware.Running, run.Current, &a.From, "firmware.running", id)
				if run.Name != flash.Name && a.Firmware.Running == run.Current {
					// "FW (Running)" is printed only when the flash holds another image.
					fill(&a.Firmware.Stored, flash.Current, &a.From, "firmware.stored", id)
				}
				fill(&a.Firmware.PSID, d.PSID, &a.From, "firmware.psid", id)
				fill(&a.PartNumber, d.PartNumber, &a.From, "part_number", id)
				continue
			}
			if d.PCIName == "" && d.PSID == "" {
				continue // a fragment with nothing to name it by
			}
			fd := record.FirmwareDevice{
				Name: d.PCIName, DeviceType: d.Type, PartNumber: d.PartNumber, Description: d.Description,
				PSID: d.PSID, BaseGUID: d.BaseGUID, FWCurrent: flash.Current, FWAvailable: flash.Available,
				Status: d.Status, Source: id, Line: d.Line,
			}
			if run.Name != flash.Name {
				fd.FWRunning = run.Current
			}
			for _, v := range d.Versions {
				fd.Versions = append(fd.Versions, record.FirmwareDeviceVersion{Name: v.Name, Current: v.Current, Available: v.Available, Line: v.Line})
			}
			c.h.FirmwareDevices = append(c.h.FirmwareDevices, fd)
		}
		return nil
	})
}
