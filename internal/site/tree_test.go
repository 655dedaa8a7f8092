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

// TestWrapTextCJK: CJK text breaks between characters, but a line never
// starts with closing punctuation nor ends with an opening one, and a
// Latin word inside CJK text is not split when it fits a line.
func TestWrapTextCJK(t *testing.T) {
	for _, s := range []string{
		"在 RoCE 上，RDMA 端口状态跟随其 netdev 的以太网链路：netdev 被管理性关闭（DISABLED），或者没有对端（POLLING：线缆、光模块、交换机端口、速率或 FEC 不匹配）。",
		"内核里有这个 RDMA 设备，但 libibverbs 打不开它：对应的 provider 库缺失、按另一个 provider ABI 编译，或者不接受内核的 ABI（用户态和内核来自不同的栈）。",
		"netdev 的以太网链路是通的吗？",
	} {
		ls := wrapText(s, mapLineUnits)
		if got := strings.Join(ls, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Errorf("wrapText(%q) lost text: %q", s, ls)
		}
		for i, l := range ls {
			r := []rune(l)
			if strings.ContainsRune("，。、：；）」』》〉！？", r[0]) {
				t.Errorf("line %d of %q starts with %q: %q", i, s, r[0], ls)
			}
			if strings.ContainsRune("（「『《〈", r[len(r)-1]) {
				t.Errorf("line %d of %q ends with %q: %q", i, s, r[len(r)-1], ls)
			}
			for _, w := range []string{"netdev", "libibverbs", "provider", "DISABLED", "POLLING"} {
				if i+1 < len(ls) && strings.HasSuffix(l, w[:3]) && strings.HasPrefix(ls[i+1], w[3:]) {
					t.Errorf("%q split across lines: %q", w, ls)
				}
			}
		}
		if len(ls) < 2 {
			t.Errorf("wrapText(%q) = %q: want several lines", s, ls)
		}
	}
	if got := wrapText("netdev 的以太网链路是通的吗？", mapLineUnits); got[0] == "netdev" {
		t.Errorf("a Latin word before CJK text sits alone on its line: %q", got)
	}
}
