package rdmatool

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

// `rdma system` as iproute2 prints it: the real captures (a kernel with
// copy-on-fork, an iproute2 without the object), the older one-key form,
// the privileged-qkey and monitor keys of later ones, and -j.
func TestParseSystem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in   string
		ok         bool
		netns, cof string
	}{
		{"capture: shared, copy-on-fork", string(capturetest.Read(t, "rdma", "system-netns-shared-copy-on-fork.txt")), true, "shared", "on"},
		{"capture: old iproute2", string(capturetest.Read(t, "rdma", "system-show-unknown-object-old-iproute2.txt")), false, "", ""},
		{"netns only (before copy-on-fork)", "netns exclusive\n", true, "exclusive", ""},
		{"privileged-qkey and monitor", "netns exclusive privileged-qkey off monitor off copy-on-fork on\n", true, "exclusive", "on"},
		{"json", `[{"netns":"exclusive","copy-on-fork":true}]` + "\n", true, "exclusive", "on"},
		{"empty", "", false, "", ""},
	} {
		s, ok, err := ParseSystem(strings.NewReader(tc.in))
		if err != nil || ok != tc.ok || s.Netns != tc.netns || s.CopyOnFork != tc.cof {
			t.Errorf("%s: %+v %t %v", tc.name, s, ok, err)
		}
	}
}
