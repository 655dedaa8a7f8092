package dmesg

import (
	"strings"
	"testing"
)

// Each driver wording of a firmware the driver does not pair with, from the
// format string that prints it (fwmismatch.go names the code), the printf
// verbs filled as the kernel fills them; and the real lines of
// testdata/captures/kernellog.
func TestFirmwareMismatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line, device, driver, direction string
		stops, pkg, benign              bool
	}{
		{line: "ice 0000:3b:00.0: The driver for the device stopped because the NVM image is newer than expected. You must install the most recent version of the network driver.", device: "0000:3b:00.0", driver: "ice", direction: FirmwareNewer, stops: true},
		{line: "ice 0000:3b:00.0: The driver for the device detected a newer version of the NVM image than expected. Please install the most recent version of the network driver.", device: "0000:3b:00.0", driver: "ice", direction: FirmwareNewer},
		{line: "ice 0000:3b:00.0: The driver for the device detected an older version of the NVM image than expected. Please update the NVM image.", device: "0000:3b:00.0", driver: "ice", direction: FirmwareOlder},
		{line: "i40e 0000:3d:00.0: The driver for the device detected an older version of the NVM image v1.3 than expected v1.9. Please update the NVM image.", device: "0000:3d:00.0", driver: "i40e", direction: FirmwareOlder},
		{line: "i40e 0000:44:00.1: The driver for the device detected a newer version of the NVM image v1.15 than expected v1.9. Please install the most recent version of the network driver.", device: "0000:44:00.1", driver: "i40e", direction: FirmwareNewer, benign: true},
		{line: "ice 0000:3b:00.0: The DDP package file version is higher than the driver supports.  Please use an updated driver.  Entering Safe Mode.", device: "0000:3b:00.0", driver: "ice", direction: FirmwareNewer, stops: true, pkg: true},
		{line: "ice 0000:3b:00.0: The DDP package file version is lower than the driver supports.  The driver requires version 1.3.x.x.  Please use an updated DDP Package file.  Entering Safe Mode.", device: "0000:3b:00.0", driver: "ice", direction: FirmwareOlder, stops: true, pkg: true},
		{line: "ice 0000:3b:00.0: The firmware loaded on the device is not compatible with the DDP package.  Please update the device's NVM.  Entering safe mode.", device: "0000:3b:00.0", driver: "ice", direction: FirmwareOlder, stops: true, pkg: true},
		{line: "ice 0000:3b:00.0: The device has a DDP package that is not supported by the driver.  The device has package 'ICE OS Default Package' version 1.2.x.x.  The driver requires version 1.3.x.x.  Entering Safe Mode.", device: "0000:3b:00.0", driver: "ice", direction: FirmwareOther, stops: true, pkg: true},
		{line: "mlx4_core 0000:04:00.0: Installed FW has unsupported command interface revision 1", device: "0000:04:00.0", driver: "mlx4_core", direction: FirmwareOther, stops: true},
		{line: "mlx4_core 0000:04:00.0: This driver version supports only revisions 2 to 3", device: "0000:04:00.0", driver: "mlx4_core", direction: FirmwareOther, stops: true},
		{line: "mlx5_core 0000:01:00.0: mlx5_cmd_init:2017:(pid 1): Driver cmdif rev(5) differs from firmware's(4)", device: "0000:01:00.0", driver: "mlx5_core", direction: FirmwareOther, stops: true},
		{line: "bnxt_en 0000:3b:00.0 (unnamed net_device) (uninitialized): HWRM interface 0.8.0 is older than 1.0.0.", device: "0000:3b:00.0", driver: "bnxt_en", direction: FirmwareOlder},
		{line: "bnxt_en 0000:3b:00.0 (unnamed net_device) (uninitialized): Please update firmware with HWRM interface 1.0.0 or newer.", device: "0000:3b:00.0", driver: "bnxt_en", direction: FirmwareOlder},
	} {
		lg, _ := ParseLog(strings.NewReader("[    1.000000] " + tc.line + "\n"))
		if len(lg.Events) != 1 || lg.Events[0].Kind != FirmwareMismatch || lg.Events[0].Device != tc.device {
			t.Errorf("%s\n  = %+v, want one %s on %s", tc.line, lg.Events, FirmwareMismatch, tc.device)
			continue
		}
		e := lg.Events[0]
		m, ok := MismatchOf(e.Module, e.Text)
		if !ok || m.Driver != tc.driver || m.Direction != tc.direction || m.Stops != tc.stops || m.Package != tc.pkg || m.Benign != tc.benign || m.Source == "" || m.Quote == "" {
			t.Errorf("%s\n  = %+v (%t)", tc.line, m, ok)
		}
	}
	// The DDP lines that report no version pairing stay what they were.
	for _, line := range []string{
		"ice 0000:01:00.0: The DDP package file was not found or could not be read. Entering Safe Mode",
		"ice 0000:65:00.0: The DDP package was successfully loaded: ICE OS Default Package version 1.3.36.0",
		"ixgbe 0000:05:00.0: The driver for the device detected a newer version of the NVM image than expected. Please install the most recent version of the network driver.",
	} {
		lg, _ := ParseLog(strings.NewReader("[    1.000000] " + line + "\n"))
		for _, e := range lg.Events {
			if e.Kind == FirmwareMismatch {
				t.Errorf("%s: classified %s", line, e.Kind)
			}
		}
	}
}
