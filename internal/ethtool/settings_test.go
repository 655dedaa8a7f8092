package ethtool

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

// TestParseSettings: the settings block in each layout a paste gives:
// indented, behind "# " on every line, mail-quoted, and mail-quoted with
// the indentation lost.
func TestParseSettings(t *testing.T) {
	for _, tc := range []struct {
		file string
		want Settings
	}{
		{"bnx2x-settings-ens4f1-link-detected-after-blank.txt", Settings{"ens4f1", "10000Mb/s", "Full", "yes"}},
		{"rnp-settings-hash-prefixed-lines.txt", Settings{"ens1f0", "10000Mb/s", "Full", "yes"}},
		{"ice-e810-settings-ens2f0np0-mail-quoted-dac-10g.txt", Settings{"ens2f0np0", "10000Mb/s", "Full", "yes"}},
		{"ice-e810-settings-eth3-speed-unknown-link-no-indent-collapsed.txt", Settings{"eth3", "Unknown!", "Unknown! (255)", "no"}},
	} {
		got, err := ParseSettings(bytes.NewReader(capturetest.Read(t, "ethtool", tc.file)))
		if err != nil || len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.file, got, err, tc.want)
		}
	}
}
