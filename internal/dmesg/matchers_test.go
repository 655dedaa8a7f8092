package dmesg

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// handMatchers are the checks written out in place of a pattern, each
// beside the pattern it replaces; agree reports how one line is answered
// differently, "" when it is not.
var handMatchers = map[string]func(line string) string{
	"journalHead": func(l string) string {
		end, id0, id1, ok := journalHead(l)
		m := journalRE.FindStringSubmatchIndex(l)
		if m == nil {
			if ok {
				return "journalHead matches, journalRE does not"
			}
			return ""
		}
		if !ok || end != m[1] || id0 != m[2] || id0 >= 0 && id1 != m[3] {
			return "journalHead and journalRE differ"
		}
		return ""
	},
	"isRDMACode": func(l string) string {
		if isRDMACode(l) != rdmaCode.MatchString(l) {
			return "isRDMACode and rdmaCode differ"
		}
		return ""
	},
	"probeFailure": func(l string) string {
		dev, errno, ok := probeFailure(l)
		m := probe.FindStringSubmatch(l)
		if ok != (m != nil) || ok != isProbeFailure(l) {
			return fmt.Sprintf("probeFailure %v, probe %v", ok, m != nil)
		}
		if m == nil {
			return ""
		}
		want := [2]string{m[1], m[2]}
		if m[1] == "" {
			want = [2]string{strings.TrimSuffix(m[4], ":"), m[5]}
		}
		if got := [2]string{dev, errno}; got != want {
			return fmt.Sprintf("probeFailure %q, probe %q", got, want)
		}
		return ""
	},
	"classDevice": func(l string) string {
		cls, name, rest, ok := classDevice(l)
		want := [4]any{"", "", "", false}
		if i := strings.Index(l, ": "); i > 0 {
			if f := strings.Fields(l[:i]); len(f) == 2 && isWord(f[0]) && isWord(f[1]) && f[0]+" "+f[1] == l[:i] {
				want = [4]any{f[0], f[1], l[i+2:], true}
			}
		}
		if got := [4]any{cls, name, rest, ok}; got != want {
			return fmt.Sprintf("classDevice %q, before %q", got, want)
		}
		return ""
	},
	"pidIdentAt": func(l string) string {
		end, id1, ok := pidIdentAt(l, 0)
		m := pidIdentRE.FindStringSubmatchIndex(l)
		if ok != (m != nil) || ok && (end != m[1] || m[2] != 0 || id1 != m[3]) {
			return fmt.Sprintf("pidIdentAt %v %d %d, pidIdentRE %v", ok, end, id1, m)
		}
		return ""
	},
	"pciHead": func(l string) string {
		h := l
		if i := strings.Index(l, ": "); i > 0 {
			h = l[:i]
		}
		drv, bdf, ok := pciHead(h)
		var want [3]any
		if f := strings.Fields(h); len(f) >= 2 && len(f) <= 3 && isWord(f[0]) && isBDF(f[1]) && f[0]+" "+strings.Join(f[1:], " ") == h {
			want = [3]any{f[0], f[1], true}
		} else {
			want = [3]any{"", "", false}
		}
		if got := [3]any{drv, bdf, ok}; got != want {
			return fmt.Sprintf("pciHead %q, before %q", got, want)
		}
		return ""
	},
	"nameAfterAddress": func(l string) string {
		want := ""
		if i := strings.Index(l, ": "); i >= 0 {
			if f := strings.Fields(l[:i]); len(f) == 3 && isBDF(f[1]) {
				want = f[2]
			}
		}
		if got := nameAfterAddress(l); got != want {
			return fmt.Sprintf("nameAfterAddress %q, before %q", got, want)
		}
		return ""
	},
	"queueFailed": func(l string) string {
		if queueFailed(l, strings.ToLower(l)) && !queueRE.MatchString(l) {
			return "queueFailed takes a line queueRE does not match"
		}
		return ""
	},
	"failedErrno": func(l string) string {
		want := ""
		if m := failedErr.FindStringSubmatch(l); m != nil {
			want = m[1]
		}
		if got := failedErrno(l); got != want {
			return fmt.Sprintf("failedErrno %q, failedErr %q", got, want)
		}
		return ""
	},
	"syslogStamp": func(l string) string {
		if (syslogRE.MatchString(l) || fullRE.MatchString(l)) && !(len(l) > 4 && isLowerASCII(l[1]) && isLowerASCII(l[2]) && isSpaceRE(l[3])) {
			return "a syslog or journal stamp the gate passes over"
		}
		return ""
	},
	"pcieLimit": func(l string) string {
		want := limitRE.FindStringSubmatch(l)
		got, ok := pcieLimit(l)
		if ok != (want != nil) || ok && !slices.Equal(got[:], want) {
			return fmt.Sprintf("pcieLimit %q, limitRE %q", got, want)
		}
		return ""
	},
	"hasPathRoot": func(l string) string {
		if hasPathRoot(l) != (strings.Contains(l, "drivers/") || strings.Contains(l, "net/")) {
			return "hasPathRoot and the two searches differ"
		}
		return ""
	},
	"kindOf": func(l string) string {
		for _, f := range append(strings.FieldsFunc(l, func(c rune) bool { return c == ' ' || c == ':' || c == '[' || c == ']' }), l) {
			if kindOf(f) != moduleKinds[f] {
				return "kindOf and moduleKinds differ on " + f
			}
		}
		return ""
	},
	"isRDMAName": func(l string) string {
		for _, f := range strings.Fields(l) {
			if isRDMAName(f) != rdmaName.MatchString(f) {
				return "isRDMAName and rdmaName differ on " + f
			}
		}
		return ""
	},
	"digitFirst": func(l string) string {
		if (lineNoRE.MatchString(l) || gluedNoRE.MatchString(l)) && !digitFirst(l) {
			return "a line number the gate passes over"
		}
		return ""
	},
	"stripLevel": func(l string) string {
		if facilityRE.MatchString(l) && (!strings.ContainsRune("acdfklmnsu", rune(l[0])) || !facilityName(l)) {
			return "a facility the gate passes over"
		}
		return ""
	},
}

// captureLines are the lines of every capture, and each with its stamp
// and speaker taken off, as the matchers meet them; each once (a third of
// them are in more than one capture, and every check is a function of the
// line alone).
func captureLines(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	seen := map[string]bool{}
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			add(l)
			if _, text, ok := dmesgStamp(l); ok {
				add(text)
			}
		}
	}
	return out
}

// fuzzing reports whether the run mutates a fuzz target's inputs
// (-test.fuzz): a target whose seeds a test already holds to the same
// property adds them only then.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// TestHandMatchersAgree: each written-out check answers as its pattern
// on every line of every capture.
func TestHandMatchersAgree(t *testing.T) {
	t.Parallel()
	ls := captureLines(t)
	ls = append(ls, "host kernel: x", "kernel: x", "h rdma-ndd[812]: x", "h kernel[1]: x", "h x[]: y", "[a] kernel: x", "a:b kernel: x",
		"rdma-ndd[812]: x", "9x[1]: y", "h 9x[1]: y", "h\tkernel: x", "h  kernel: x", "é kernel: x", "\xff kernel: x",
		"at drivers/infiniband/core/cma.c:1", "[hns_roce_hw_v2]", "[hns_roce-x]", "[[mlx5_core]", "[mlx5_core ]", "[ice]x", "net/devlink/",
		"  12: x", "\f7: [1.2] x", "\r\n9[ 1.2] x", "kern  :warn  : x", "kern.err: x",
		"probe of a failed with error -1", "xprobe of a failed with error -1", "x probe of a b failed with error 2 probe of c failed with error 3", "a b:: probe with driver d failed with error -5",
		"probe of x probe with driver d failed with error -5", "a : probe with driver d failed with error 1", "a b probe with driver d failed with error -x",
		"probe of  failed with error 1 probe of z failed with error -7", "a\tb: probe with driver d failed with error 1", "a b: x", "a  b: x", "a b c: x", " a: x",
		"mlx5_core 0000:03:00.0 eth0: x", "mlx5_core 0000:03:00.0  eth0: x", "mlx5_core 0000:03:00.0 eth0 : x", "mlx5_core 0000:03:00.0\u00a0eth0: x",
		"mlx5_core 0000:03:00.0 e\u0085h0: x", "mlx5_core 0000:03:00.0 \xffeth: x", "mlx5_core 0000:03:00.0\veth0: x", " mlx5_core 0000:03:00.0 eth0: x",
		"mlx5_core\t0000:03:00.0 eth0: x", "mlx5_core 0000:03:00.0: x", "mlx5_core 0000:03:00.0 : x", "a[1]: x", "a.b@c-d_e[12]: x", "a[]: x", "1a[1]: x",
		"failed to create eq", "Failed to create async EQs", "xfailed to create eq", "failed to createeq", "failed to create; eq", "failed to create.eq",
		"failed to create a very long list of things before eq", "failed to create 123456789012345678901234567 eq", "failed to create 1234567890123456789012345678 eq",
		"failed to create 12345678901234567890123456789 eq", "failed to create _eq", "failed to create x-eq", "unable to set up msi-x", "failure to start portal",
		"failed to open port\u00e9", "failed with error code -22", "failed with error -5", "failed with error code x failed with error 7", "failed with error code 3",
		"failed with error code", "failed with error - failed with error -", "failed with errorfailed with error 1", "failed with error  1", "mlx5_0 mlx4_1 rxe0 enp1s0_rxe _rxe siw_eth1 x_rxe_ mlx5_bond_0 ", "RDS/IB RPC RIP mlx5_core mlx5_cor mlx5_core_ ib_ipoib nvidia-peermem",
		"authpriv.err: x", "/net/", "net/", "drivers/", "rivers/", "a/b/drivers", "x/drivers/y", "et/", "/", "", "x 8.0 Gb/s available PCIe bandwidth (8 GT/s PCIe x8 link)", "1.2.3 Gb/s available PCIe bandwidth, limited by 2.5 GT/s PCIe x1 link at 0000:00:1c.4 (capable of 63.008 Gb/s with 8 GT/s PCIe x8 link)",
		"a Gb/s available PCIe bandwidth (8 GT/s PCIe x8 link) 4 Gb/s available PCIe bandwidth (8 GT/s PCIe x8 link)", "7 Gb/s available PCIe bandwidth (8 GT/s PCIe x link) 5 Gb/s available PCIe bandwidth ( GT/s PCIe x8 link)",
		"1 Gb/s available PCIe bandwidth, limited by 2 GT/s PCIe x1 link at zz (capable of 3 Gb/s with 4 GT/s PCIe x5 link) 6 Gb/s available PCIe bandwidth (7 GT/s PCIe x8 link)", "..Gb/s available PCIe bandwidth (.. GT/s PCIe x0 link)x", "Jan  1 00:00:00 h kernel: x", "Jan 1 00:00:00 h kernel: x", "Jan\t1 00:00:00 x", "Mon 2024-01-01 00:00:00 UTC h kernel: x", "Jan", "Jan 1", "auth.err: x", "kernel: x", "local7.info: x", "daemon :err : x", "unable to enable msi interrupts", "fa\u0130led to create eq", "\u0130 failed to create eq", "fail to init eq_1", "failed to  create eq", "failed to create\teq", "failed to create eq\u212a")
	matched := map[string]int{}
	for _, l := range ls {
		for name, agree := range handMatchers {
			if d := agree(l); d != "" {
				t.Errorf("%s on %q: %s", name, l, d)
			}
		}
		if journalRE.MatchString(l) {
			matched["journalRE"]++
		}
		if rdmaCode.MatchString(l) {
			matched["rdmaCode"]++
		}
		if lineNoRE.MatchString(l) {
			matched["lineNoRE"]++
		}
		if facilityRE.MatchString(l) {
			matched["facilityRE"]++
		}
		if probe.MatchString(l) {
			matched["probe"]++
		}
		if queueFailed(l, strings.ToLower(l)) {
			matched["queueFailed"]++
		}
		if failedErr.MatchString(l) {
			matched["failedErr"]++
		}
		if limitRE.MatchString(l) {
			matched["limitRE"]++
		}
	}
	for name, least := range map[string]int{"journalRE": 5, "rdmaCode": 5, "lineNoRE": 5, "facilityRE": 2, "probe": 10, "queueFailed": 10, "failedErr": 10, "limitRE": 10} {
		if matched[name] < least {
			t.Errorf("%s matched only %d lines: the comparison proves little", name, matched[name])
		}
	}
}

// FuzzHandMatchersAgree: the same on any line, seeded with the captures'
// lines a pattern matches when fuzzing (TestHandMatchersAgree holds each
// of them in every run).
func FuzzHandMatchersAgree(f *testing.F) {
	if fuzzing() {
		for _, l := range captureLines(f) {
			if journalRE.MatchString(l) || rdmaCode.MatchString(l) || lineNoRE.MatchString(l) || facilityRE.MatchString(l) || probe.MatchString(l) || queueRE.MatchString(l) || failedErr.MatchString(l) || limitRE.MatchString(l) {
				f.Add(l)
			}
		}
	}
	f.Fuzz(func(t *testing.T, l string) {
		for name, agree := range handMatchers {
			if d := agree(l); d != "" {
				t.Errorf("%s on %q: %s", name, l, d)
			}
		}
	})
}
