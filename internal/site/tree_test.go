package site

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestWrapTextKeepsEveryWord: a tree map's box shows its whole text on
// as many lines as it needs, never cut with "…".
func TestWrapTextKeepsEveryWord(t *testing.T) {
	for _, s := range []string{
		"Does ibv_devinfo list the device and is its port state PORT_ACTIVE on the RoCE netdev?",
		"a_single_identifier_longer_than_any_line_of_a_box_can_hold",
		"设备是否出现在 ibv_devinfo 的输出中，并且端口状态为 PORT_ACTIVE？",
		"",
	} {
		ls := wrapText(s, mapLineUnits)
		if got := strings.Join(ls, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Errorf("wrapText(%q) lost text: %q", s, ls)
		}
		for _, l := range ls {
			units := 0
			for _, r := range l {
				units++
				if r >= 0x2E80 {
					units++
				}
			}
			if units > mapLineUnits || !utf8.ValidString(l) {
				t.Errorf("wrapText(%q): line %q is %d units, over %d", s, l, units, mapLineUnits)
			}
		}
	}
}
