package diagnose

import (
	"os"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/dmesg"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// fw-driver-mismatch on the real i40e logs (a message Intel called
// misleading: a pass, saying why), on a log without such a line, without a
// log, and on lines in each driver's wording (the format strings of
// internal/dmesg's table, filled), where no public capture shows them.
func TestFirmwareDriverMismatch(t *testing.T) {
	t.Parallel()
	logLine := func(module, device, text string) func(h *record.Host) {
		return func(h *record.Host) {
			h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: record.LogFirmwareMismatch, Module: module, Device: device, Text: text, Source: "cmd/dmesg", Line: 7})
		}
	}
	runCases(t, "fw-driver-mismatch", []checkCase{
		{"golden log-i40e-newer-nvm-v1.15-than-v1.9-journal-truncated: i40e's newer NVM is no problem", golden(t, "log-i40e-newer-nvm-v1.15-than-v1.9-journal-truncated"), Pass, "", ""},
		{"golden log-i40e-x722-newer-nvm-than-expected-mail", golden(t, "log-i40e-x722-newer-nvm-than-expected-mail"), Pass, "", ""},
		{"golden log-mlx5-cx6-health-compromised-irisc-not-responding: no such line", golden(t, "log-mlx5-cx6-health-compromised-irisc-not-responding"), Pass, "", ""},
		{"golden mlx4-cx3-vf-container: no kernel log", golden(t, "mlx4-cx3-vf-container"), Unknown, "", ""},
		{"ice stops on a newer NVM", with(golden(t, "log-i40e-x722-newer-nvm-than-expected-mail"),
			logLine("ice", "0000:3b:00.0", "ice 0000:3b:00.0: The driver for the device stopped because the NVM image is newer than expected. You must install the most recent version of the network driver.")), Found, Error, "0000:3b:00.0"},
		{"ice: an older NVM", with(golden(t, "log-i40e-x722-newer-nvm-than-expected-mail"),
			logLine("ice", "0000:3b:00.0", "ice 0000:3b:00.0: The driver for the device detected an older version of the NVM image than expected. Please update the NVM image.")), Found, Warning, "0000:3b:00.0"},
		{"ice: DDP package lower than the driver supports (Safe Mode)", with(golden(t, "log-i40e-x722-newer-nvm-than-expected-mail"),
			logLine("ice", "0000:3b:00.0", "ice 0000:3b:00.0: The DDP package file version is lower than the driver supports.  The driver requires version 1.3.x.x.  Please use an updated DDP Package file.  Entering Safe Mode.")), Found, Error, "0000:3b:00.0"},
		{"mlx5: command interface revision differs", with(golden(t, "log-i40e-x722-newer-nvm-than-expected-mail"),
			logLine("mlx5_core", "0000:01:00.0", "mlx5_core 0000:01:00.0: mlx5_cmd_init:2017:(pid 1): Driver cmdif rev(5) differs from firmware's(4)")), Found, Error, "0000:01:00.0"},
		{"bnxt_en: HWRM interface older than 1.0.0", with(golden(t, "log-i40e-x722-newer-nvm-than-expected-mail"),
			logLine("bnxt_en", "0000:3b:00.0", "bnxt_en 0000:3b:00.0 (unnamed net_device) (uninitialized): HWRM interface 0.8.0 is older than 1.0.0.")), Found, Warning, "0000:3b:00.0"},
	})
	r, _ := Evaluate(tm(t), golden(t, "log-i40e-newer-nvm-v1.15-than-v1.9-journal-truncated")(), "fw-driver-mismatch")
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0].Text, "misleading") || r.Notes[0].Subject != "0000:44:00.1" || len(r.Notes[0].Evidence) == 0 {
		t.Errorf("notes = %+v, want the i40e line passed with Intel's word", r.Notes)
	}
	h := with(golden(t, "log-i40e-x722-newer-nvm-than-expected-mail"),
		logLine("mlx4_core", "0000:04:00.0", "mlx4_core 0000:04:00.0: Installed FW has unsupported command interface revision 1"),
		logLine("mlx4_core", "0000:04:00.0", "mlx4_core 0000:04:00.0: This driver version supports only revisions 2 to 3"))()
	r, _ = Evaluate(tm(t), h, "fw-driver-mismatch")
	if len(r.Findings) != 1 {
		t.Fatalf("findings = %+v, want one for the mlx4 function", r.Findings)
	}
	f := r.Findings[0]
	if len(f.Evidence) != 2 || len(f.Matrix) != 1 || f.Matrix[0].Quote == "" || len(f.Matrix[0].Sources) != 1 || f.Matrix[0].Sources[0].ID != "linux-src-mlx4-query-fw" {
		t.Errorf("finding = %+v, want both lines quoted and the mlx4 source cited", f)
	}
}

// Every source the driver wordings cite is a [[source]] of the bundled
// matrix, so a finding links its address.
func TestFirmwareMismatchSourcesInMatrix(t *testing.T) {
	t.Parallel()
	m, probs := matrix.Load(os.DirFS("../../matrix"), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	for _, id := range dmesg.MismatchSources() {
		if s := m.Source(id); s == nil || s.URL == "" {
			t.Errorf("source %q of a firmware-mismatch wording is not in matrix/", id)
		}
	}
}
