package dmesg

import (
	"regexp"
	"slices"
)

// FirmwareMismatch is a kernel log kind: a driver says the firmware its
// device runs (the NVM image, the firmware's command interface, or the
// firmware package the driver loads into it) is newer or older than the
// driver supports.
const FirmwareMismatch = "firmware-mismatch"

// Which side of a driver–firmware pairing a message says is out of step.
const (
	FirmwareNewer = "firmware-newer" // the firmware is newer than the driver knows: a newer driver (stack) is needed
	FirmwareOlder = "firmware-older" // the firmware is older than the driver needs: a firmware (NVM) update is needed
	FirmwareOther = "differs"        // the driver names no direction: the two do not match
)

// Mismatch is what one firmware-mismatch message says.
type Mismatch struct {
	Driver    string // the module whose wording it is (ice, i40e, mlx4_core, mlx5_core, bnxt_en)
	Direction string // FirmwareNewer, FirmwareOlder or FirmwareOther
	// Stops: the driver gives up on the device (or on the feature the
	// package carries: ice's Safe Mode has no RDMA), as its code does
	// after printing it.
	Stops bool
	// Package: the message is about ice's DDP package, not the NVM.
	Package bool
	// Benign: the vendor has said the message reports no problem; Why
	// says who and where.
	Benign bool
	Why    string
	Source string // the matrix [[source]] of the wording: the code that prints it
	Quote  string // the format string, as the source prints it
}

// mismatches are the driver messages that say the firmware and the driver
// do not pair, each from the source that prints it (wording as in the
// format string; %d/%u filled with any number). Only these wordings are
// taken: a generic "firmware … not supported" stays a firmware-problem.
var mismatches = []struct {
	re *regexp.Regexp
	m  Mismatch
}{
	// ice_controlq.c ice_aq_ver_check: the admin queue API version the
	// firmware reports against the one the driver was built for. A newer
	// major version stops the driver (dev_warn, then ice_init_check_adminq
	// returns -EIO); a minor more than two newer, or older, is logged and
	// the driver goes on.
	{regexp.MustCompile(`The driver for the device stopped because the NVM image is newer than expected`),
		Mismatch{Driver: "ice", Direction: FirmwareNewer, Stops: true, Source: "linux-src-ice-aq-ver-check", Quote: "The driver for the device stopped because the NVM image is newer than expected. You must install the most recent version of the network driver."}},
	// i40e_main.c i40e_probe: "The driver for the device detected a newer
	// version of the NVM image v%u.%u than expected v%u.%u. Please install
	// the most recent version of the network driver." (older kernels
	// print it without the versions). Intel made it a debug message:
	// "This is misleading as the driver is working as expected" (i40e: Fix
	// for displaying message regarding NVM version, Message-Id
	// <20211209095846.12221-1-mateusz.palczewski@intel.com>). Tried
	// before ice's wording, which has no versions: the driver decides.
	{regexp.MustCompile(`The driver for the device detected a newer version of the NVM image(?: v\d+\.\d+)? than(?: expected)?(?: v\d+\.\d+)?`),
		Mismatch{Direction: FirmwareNewer, Source: "linux-src-ice-aq-ver-check", Quote: "The driver for the device detected a newer version of the NVM image than expected. Please install the most recent version of the network driver."}},
	// ice_aq_ver_check and i40e_probe: "… detected an older version of the
	// NVM image [v%u.%u ]than expected[ v%u.%u]. Please update the NVM image."
	{regexp.MustCompile(`The driver for the device detected an older version of the NVM image(?: v\d+\.\d+)? than expected`),
		Mismatch{Direction: FirmwareOlder, Source: "linux-src-ice-aq-ver-check", Quote: "The driver for the device detected an older version of the NVM image than expected. Please update the NVM image."}},
	// ice_main.c ice_log_pkg_init: the DDP package against the driver
	// and the NVM; each ends in Safe Mode, which has no RDMA.
	{regexp.MustCompile(`(?i)The DDP package file version is higher than the driver supports`),
		Mismatch{Driver: "ice", Direction: FirmwareNewer, Stops: true, Package: true, Source: "linux-src-ice-main-ddp", Quote: "The DDP package file version is higher than the driver supports.  Please use an updated driver.  Entering Safe Mode."}},
	{regexp.MustCompile(`(?i)The DDP package file version is lower than the driver supports`),
		Mismatch{Driver: "ice", Direction: FirmwareOlder, Stops: true, Package: true, Source: "linux-src-ice-main-ddp", Quote: "The DDP package file version is lower than the driver supports.  The driver requires version %d.%d.x.x.  Please use an updated DDP Package file.  Entering Safe Mode."}},
	{regexp.MustCompile(`(?i)The firmware loaded on the device is not compatible with the DDP package`),
		Mismatch{Driver: "ice", Direction: FirmwareOlder, Stops: true, Package: true, Source: "linux-src-ice-main-ddp", Quote: "The firmware loaded on the device is not compatible with the DDP package.  Please update the device's NVM.  Entering safe mode."}},
	{regexp.MustCompile(`The device has a DDP package that is not supported by the driver`),
		Mismatch{Driver: "ice", Direction: FirmwareOther, Stops: true, Package: true, Source: "linux-src-ice-main-ddp", Quote: "The device has a DDP package that is not supported by the driver.  The device has package '%s' version %d.%d.x.x.  The driver requires version %d.%d.x.x.  Entering Safe Mode."}},
	// mlx4 fw.c mlx4_QUERY_FW: "Installed FW has unsupported command
	// interface revision %d", "(Installed FW version is %d.%d.%03d)",
	// "This driver version supports only revisions %d to %d", then -ENODEV.
	{regexp.MustCompile(`Installed FW has unsupported command interface revision \d+|This driver version supports only revisions \d+ to \d+`),
		Mismatch{Driver: "mlx4_core", Direction: FirmwareOther, Stops: true, Source: "linux-src-mlx4-query-fw", Quote: "Installed FW has unsupported command interface revision %d … This driver version supports only revisions %d to %d"}},
	// mlx5 cmd.c mlx5_cmd_init: "Driver cmdif rev(%d) differs from
	// firmware's(%d)", then -EINVAL.
	{regexp.MustCompile(`Driver cmdif rev\(\d+\) differs from firmware's\(\d+\)`),
		Mismatch{Driver: "mlx5_core", Direction: FirmwareOther, Stops: true, Source: "linux-src-mlx5-cmd-init", Quote: "Driver cmdif rev(%d) differs from firmware's(%d)"}},
	// bnxt.c bnxt_hwrm_ver_get: "HWRM interface %d.%d.%d is older than
	// 1.0.0." and "Please update firmware with HWRM interface 1.0.0 or
	// newer."; the driver goes on.
	{regexp.MustCompile(`HWRM interface \d+\.\d+\.\d+ is older than 1\.0\.0|Please update firmware with HWRM interface 1\.0\.0 or newer`),
		Mismatch{Driver: "bnxt_en", Direction: FirmwareOlder, Source: "linux-src-bnxt-hwrm-ver-get", Quote: "HWRM interface %d.%d.%d is older than 1.0.0. … Please update firmware with HWRM interface 1.0.0 or newer."}},
}

// mismatchWords are literals one of which every mismatches pattern holds:
// lines without one skip the patterns.
var mismatchWords = []string{"NVM image", "DDP package", "command interface revision", "supports only revisions", "cmdif rev", "HWRM interface"}

// mismatchIDs are mismatchWords in lower case, which a message holds
// whenever it holds one of them.
var mismatchIDs = lits(mismatchWords...)

// MismatchOf reports whether a message is a driver saying its firmware is
// out of step with it, and what it says. module is the speaker, which
// decides between the wordings ice and i40e share.
func MismatchOf(module, text string) (Mismatch, bool) {
	if !hasAny(text, mismatchWords) {
		return Mismatch{}, false
	}
	for _, r := range mismatches {
		if !r.re.MatchString(text) {
			continue
		}
		m := r.m
		if m.Driver == "" {
			m.Driver = module
		}
		if m.Driver == "i40e" && m.Direction == FirmwareNewer {
			m.Benign = true
			m.Why = `Intel changed this i40e message to a debug message because "This is misleading as the driver is working as expected" (Message-Id <20211209095846.12221-1-mateusz.palczewski@intel.com>)`
			m.Source, m.Quote = "intel-wired-lan-i40e-nvm-message-fix", "This is misleading as the driver is working as expected."
		} else if m.Driver == "i40e" && m.Source == "linux-src-ice-aq-ver-check" {
			m.Source = "linux-src-i40e-probe-nvm"
			m.Quote = "The driver for the device detected an older version of the NVM image v%u.%u than expected v%u.%u. Please update the NVM image."
		}
		return m, true
	}
	return Mismatch{}, false
}

// MismatchSources lists the matrix sources the wordings cite, sorted and
// once each.
func MismatchSources() []string {
	seen := map[string]bool{"intel-wired-lan-i40e-nvm-message-fix": true, "linux-src-i40e-probe-nvm": true}
	for _, r := range mismatches {
		seen[r.m.Source] = true
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
