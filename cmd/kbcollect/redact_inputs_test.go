package main

import (
	"bytes"
	"encoding/hex"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/paste"
	"github.com/rocekb/rocekb/internal/source"
)

const capturesDir = "../../testdata/captures"

// Candidates for identifiers in raw input. They are deliberately wider than
// what the redactor looks for: the test must catch what it misses.
var (
	inIPv4   = regexp.MustCompile(`\d{1,3}(?:\.\d{1,3}){3}`)
	inMAC    = regexp.MustCompile(`(?i)[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}(?:(?:[:-][0-9a-f]{2}){14})?`)
	inGUID0x = regexp.MustCompile(`(?i)0x[0-9a-f]{16}`)
	inHex4   = regexp.MustCompile(`(?i)[0-9a-f]{4}(?::[0-9a-f]{4}){3,7}`)
	inColon  = regexp.MustCompile(`(?i)[0-9a-f]{0,4}(?::(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{0,4})){2,7}`)
	// mlxfwmanager and mlxup print GUIDs and MACs as bare hex:
	// "Base GUID:        ec0d9a030044c158", "Port1 MAC:        248a0723bd75".
	inBareHex = regexp.MustCompile(`(?im)^\s*(?:Base|Port\d+)\s+(GUID|MAC):\s+([0-9a-f]{16}|[0-9a-f]{12})\s*$`)
	inSerial  = regexp.MustCompile(`(?i)(?:serial[ _.-]?(?:number|no\.?|num)?|\[SN\][^:\n]*|\bSN\b)["']?\s*[:=]?\s*["']?([A-Za-z0-9][A-Za-z0-9_-]{3,})`)
)

// versionKey ends the text before a version on its line: ethtool's
// "firmware-version:" and "version:", ibv_devinfo's "fw_ver:", rdma dev's
// "fw", devlink's "fw" and "fw.version", ibstat's "Firmware version:", and
// the further parts of one firmware-version value ("mfw X storm Y",
// "X/pkg Y"), the keys quoted as devlink -j prints them ("fw.roce": ").
var versionKey = regexp.MustCompile(`(?i)(?:^|\s)"?(?:fw_ver|firmware[- ]version|version|fw(?:\.[a-z._]+)?|mfw|storm)"?\s*[:=]?\s*"?$|(?:firmware-version|mfw).*(?:/pkg |storm )$`)

// allowed lists candidates that are not identifiers. Each entry says why;
// anything else found in the input must be gone from the redacted output.
var allowed = map[string]string{
	"0.0.0.0":           "the unspecified IPv4 address",
	"127.0.0.1":         "loopback, the same on every host",
	"255.255.255.255":   "the broadcast address",
	"255.255.255.0":     "a netmask, not an address",
	"00:00:00:00:00:00": "an unset MAC",
	"ff:ff:ff:ff:ff:ff": "the broadcast MAC",
	"0000000000000000":  "an unset GUID (ports not yet up print it)",
	"fe80000000000000":  "the link-local subnet prefix (rdma link subnet_prefix), the same on every port",
}

// notIdentifierWords are what follows "serial" in prose that is not a serial number.
var notIdentifierWords = map[string]bool{
	"number": true, "numbers": true, "console": true, "port": true, "ports": true, "line": true,
	"nvidia": true, "none": true, "unknown": true, "n/a": true, "device": true, "string": true,
}

// candidates extracts every IPv4 address, MAC, GUID (and GID interface id),
// IPv6 prefix other than fe80::/64 and serial number of an input, keyed by
// a normal form, with the spelling seen.
func candidates(text string) map[string]string {
	c := map[string]string{}
	add := func(kind, norm, seen string) {
		if _, ok := allowed[norm]; ok {
			return
		}
		c[kind+" "+norm] = seen
	}
	for _, l := range inIPv4.FindAllStringIndex(text, -1) {
		m := text[l[0]:l[1]]
		a, err := netip.ParseAddr(m)
		// A dotted quad glued to a longer dotted or dashed run is a version
		// (5.8-1.0.1.1, 1.2.3.4.5): the version fields are kept on purpose.
		if err != nil || l[0] > 0 && strings.ContainsRune(".-_", rune(text[l[0]-1])) ||
			l[1] < len(text) && (text[l[1]] == '-' || text[l[1]] == '.' && l[1]+1 < len(text) && isDigit(text[l[1]+1])) {
			continue
		}
		if a.IsLoopback() || a.IsUnspecified() {
			continue // 127/8 and 0.0.0.0 name no host
		}
		// Firmware and driver versions are dotted quads too (bnxt
		// 231.0.154.0, hns 1.8.15.0, qede "mfw 8.25.7.0 storm 8.20.0.0"),
		// printed after a version key; the record keeps them on purpose.
		lineStart := strings.LastIndexByte(text[:l[0]], '\n') + 1
		if versionKey.MatchString(text[lineStart:l[0]]) {
			continue
		}
		add("ipv4", a.String(), m)
	}
	// A run of hex bytes longer than any address (a module signature, a
	// VPD dump) holds no address: candidates stand alone.
	for _, m := range alone(text, inMAC) {
		add("mac", strings.ToLower(strings.ReplaceAll(m, "-", ":")), m)
	}
	for _, m := range inGUID0x.FindAllString(text, -1) {
		add("guid", strings.ToLower(m[2:]), m)
	}
	for _, m := range alone(text, inHex4) {
		h := strings.ToLower(strings.ReplaceAll(m, ":", ""))
		switch len(h) {
		case 16:
			add("guid", h, m)
		case 32:
			add("guid", h[16:], m) // a GID's interface id
		}
	}
	for _, m := range alone(text, inColon) {
		a, err := netip.ParseAddr(strings.Trim(m, ":"))
		if err != nil {
			a, err = netip.ParseAddr(m)
		}
		if err != nil || !a.Is6() || a.IsUnspecified() || a.IsLoopback() {
			continue
		}
		if a.Is4In6() {
			add("ipv4", a.Unmap().String(), m)
			continue
		}
		b := a.As16()
		if iid := hex.EncodeToString(b[8:]); iid != "0000000000000000" {
			add("guid", iid, m)
		}
		if p := netip.PrefixFrom(a, 64).Masked(); p != netip.MustParsePrefix("fe80::/64") {
			add("ipv6", p.String(), m)
		}
	}
	for _, m := range inBareHex.FindAllStringSubmatch(text, -1) {
		h := strings.ToLower(m[2])
		switch {
		case m[1] == "GUID" && len(h) == 16:
			add("guid", h, m[2])
		case m[1] == "MAC" && len(h) == 12:
			add("mac", h[0:2]+":"+h[2:4]+":"+h[4:6]+":"+h[6:8]+":"+h[8:10]+":"+h[10:12], m[2])
		}
	}
	for _, m := range inSerial.FindAllStringSubmatch(text, -1) {
		if !notIdentifierWords[strings.ToLower(m[1])] {
			add("serial", strings.ToLower(m[1]), m[1])
		}
	}
	return c
}

// alone returns the matches of re not glued to more hex digits, colons or
// dashes on either side.
func alone(text string, re *regexp.Regexp) []string {
	var out []string
	for _, l := range re.FindAllStringIndex(text, -1) {
		if l[0] > 0 && isHexOrSep(text[l[0]-1]) || l[1] < len(text) && isHexOrSep(text[l[1]]) {
			continue
		}
		out = append(out, text[l[0]:l[1]])
	}
	return out
}

func isHexOrSep(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '-'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// leaks returns the candidates of the input that the output still holds:
// in any spelling for addresses (candidates of the output with the same
// normal form) and as text for serial numbers and MACs.
func leaks(in map[string]string, out string) []string {
	if len(in) == 0 {
		return nil // nothing of the input can be in the output (most inputs hold no candidate)
	}
	outC := candidates(out)
	lower := strings.ToLower(out)
	var l []string
	for k, seen := range in {
		kind, norm, _ := strings.Cut(k, " ")
		_, again := outC[k]
		switch {
		case again:
			l = append(l, k+" ("+seen+")")
		case kind == "serial" && strings.Contains(lower, norm):
			l = append(l, k+" ("+seen+")")
		case kind == "mac" && strings.Contains(lower, strings.ReplaceAll(norm, ":", "")):
			l = append(l, k+" ("+seen+")") // bare, as mlxfwmanager prints it
		case kind == "guid" && strings.Contains(lower, norm):
			l = append(l, k+" ("+seen+")")
		case kind == "ipv6" && prefixIn(lower, netip.MustParsePrefix(norm)):
			l = append(l, k+" ("+seen+")")
		}
	}
	sort.Strings(l)
	return l
}

// captureLayout places one capture of testdata/captures where collect
// reads it in an sosreport, by its tool folder and its command line
// (line 1), so collect parses it as it would in a real report.
func captureLayout(t *testing.T, tool, name string) map[string][]byte {
	raw, err := os.ReadFile(filepath.Join(capturesDir, tool, name))
	if err != nil {
		t.Fatal(err)
	}
	body := capturetest.Read(t, tool, name)
	line1, _, _ := strings.Cut(string(raw), "\n")
	cmdline := strings.TrimPrefix(strings.TrimPrefix(line1, "# "), "sudo ")
	for _, cut := range []string{" |", "|", " (", ";"} {
		cmdline, _, _ = strings.Cut(cmdline, cut)
	}
	cmdline = strings.Join(strings.Fields(cmdline), " ")
	files := map[string][]byte{"sos_commands/sos/placeholder": nil}
	put := func(line string) { files[source.SosPath(line)] = body }
	switch tool {
	case "sysfs":
		// "path: value" lines of a sysfs tree, or one file's cat, or a
		// listing of /sys/module.
		switch {
		case strings.Contains(line1, "path: value"):
			for _, l := range strings.Split(string(body), "\n") {
				if p, v, ok := strings.Cut(l, ": "); ok && strings.HasPrefix(p, "/sys/") {
					files[strings.TrimPrefix(p, "/")] = []byte(v + "\n")
				}
			}
		case strings.HasPrefix(cmdline, "cat /sys/"):
			var keep []string
			for _, l := range strings.Split(string(body), "\n") {
				if !strings.Contains(l, "$ cat ") {
					keep = append(keep, l)
				}
			}
			files[strings.TrimPrefix(strings.TrimPrefix(cmdline, "cat "), "/")] = []byte(strings.Join(keep, "\n"))
		default:
			for _, l := range strings.Split(string(body), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.ContainsAny(l, " $/") {
					files["sys/module/"+l+"/refcnt"] = []byte("0\n")
				}
			}
		}
	case "modinfo":
		files[string(source.ModinfoAll)] = body
	case "kconfig":
		// The running kernel's configuration, as zcat /proc/config.gz
		// prints it (whole or grepped): no release to name a /boot file by.
		files[string(source.ProcConfigGz)] = body
	case "paste":
		// A shell session: each output where kbcollect paste files it.
		secs, _, err := paste.Split(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for p, f := range paste.FS(secs) {
			files[p] = f.Data
		}
	case "deviceplugin":
		// sos's kubernetes plugin with podlogs: one file per container.
		files["sos_commands/kubernetes/cluster-info/kube-system/podlogs/sriov-dp/kubectl_--namespace_kube-system_logs_sriov-dp_-c_kube-sriovdp"] = body
	case "mlxfwmanager":
		// mlxup --query prints the same blocks; both are read from here.
		put("mlxfwmanager --query")
	case "flint":
		// sos's mellanox_firmware plugin, one query per card.
		files["sos_commands/mellanox_firmware/flint_-d_0000_01_00.0_q"] = body
	case "mlxconfig":
		// One query per device, named as sos names a command's output.
		files["sos_commands/mellanox_firmware/mlxconfig_-d_0000_01_00.0_-e_q"] = body
	case "supportconfig":
		// A section of a supportconfig file, the folder's only file.
		return map[string][]byte{"basic-environment.txt": raw}
	case "ls":
		// A listing of /dev/infiniband or of /sys/class/infiniband, long
		// or short (ll, ls -la, a trailing slash).
		line := "ls /dev/infiniband"
		if strings.Contains(cmdline, "/sys/class/infiniband") {
			line = "ls /sys/class/infiniband"
		}
		if f := strings.Fields(cmdline); f[0] == "ll" || len(f) > 1 && strings.HasPrefix(f[1], "-") && strings.Contains(f[1], "l") {
			line = strings.Replace(line, "ls ", "ls -l ", 1)
		}
		put(line)
	case "cmdline":
		// The kernel command line, as sos copies /proc/cmdline.
		files[string(source.ProcCmdline)] = body
	case "os-release":
		files[string(source.EtcOSRelease)] = body
	case "redhat-release":
		files[string(source.EtcRedHatRelease)] = body
	case "modprobe":
		// A modprobe.d file, where sos's kernel plugin copies it.
		files["etc/modprobe.d/"+strings.TrimSuffix(name, ".txt")+".conf"] = body
	case "interrupts":
		// Where sos's hardware plugin copies it; the interrupts row reads it.
		files["proc/interrupts"] = body
	case "ip":
		// Where sos's networking plugin keeps ip -d address, whose link lines the ip row reads.
		files["sos_commands/networking/ip_-d_address"] = body
	case "ethtool":
		if c, ok := source.Find(cmdline); ok && strings.HasPrefix(c.Line, "ethtool -i") {
			put(cmdline)
		} else {
			put("ethtool -i eth0")
		}
	default:
		if c, ok := source.Find(cmdline); ok && !strings.Contains(c.Line, "{") {
			put(c.Line)
			break
		}
		def := map[string]string{
			"devlink": "devlink dev info", "dmesg": "dmesg", "ibdev2netdev": "ibdev2netdev", "ibstat": "ibstat",
			"ibstatus": "ibstatus", "ibv_devices": "ibv_devices", "ibv_devinfo": "ibv_devinfo", "lsmod": "lsmod",
			"lspci": "lspci -nnvv", "ofed_info": "ofed_info -s", "rdma": "rdma link show", "rxe_cfg": "rxe_cfg status", "show_gids": "show_gids",
			"kernellog": "dmesg", "mst": "mst status -v", "lshw": "lshw -class network",
		}[tool]
		if def == "" {
			t.Fatalf("%s/%s: no place for captures of %s; add one to captureLayout", tool, name, tool)
		}
		switch {
		case tool == "ibv_devinfo" && strings.Contains(" "+cmdline+" ", " -v "), tool == "ibv_devinfo" && strings.Contains(cmdline, "-vv"):
			def = "ibv_devinfo -v"
		case tool == "devlink" && strings.Contains(cmdline, "param"):
			def = "devlink dev param show"
		case tool == "devlink" && strings.Contains(cmdline, " -j"):
			def = "devlink -j dev info"
		case tool == "ibdev2netdev" && strings.Contains(cmdline, "-v"):
			def = "ibdev2netdev -v"
		case tool == "rdma" && strings.Contains(cmdline, "dev"):
			def = "rdma dev show"
		}
		put(def)
	}
	return files
}

// prefixIn reports whether text holds a /64 prefix written as the first
// four groups of an address, in full (2001:0db8:0042:0017) or without
// leading zeros (2001:db8:42:17), even when what follows is not an address
// any more ("2001:0db8:0042:0017:guid-…").
func prefixIn(text string, p netip.Prefix) bool {
	b := p.Addr().As16()
	var full, short []string
	for i := 0; i < 8; i += 2 {
		g := hex.EncodeToString(b[i : i+2])
		full = append(full, g)
		short = append(short, strings.TrimLeft(g[:3], "0")+g[3:])
	}
	return strings.Contains(text, strings.Join(full, ":")) || strings.Contains(text, strings.Join(short, ":")+":")
}

func writeTree(t *testing.T, files map[string][]byte) string {
	dir := t.TempDir()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// identifierKinds are the kinds of candidates (candidates) that must each
// reach an unredacted record for TestRedactedOutputHoldsNoInputIdentifier
// to be able to fail.
var identifierKinds = []string{"ipv4", "mac", "guid", "ipv6", "serial"}

// reachedAll reports whether every identifier kind has reached a record.
func reachedAll(reached map[string]int) bool {
	for _, k := range identifierKinds {
		if reached[k] == 0 {
			return false
		}
	}
	return true
}

// TestRedactedOutputHoldsNoInputIdentifier runs kbcollect, redaction on,
// over every host fixture and every capture, and requires that no IPv4
// address, MAC, GUID, GID interface id, IPv6 prefix other than fe80::/64
// or serial number found in the input appears in the record.
func TestRedactedOutputHoldsNoInputIdentifier(t *testing.T) {
	t.Parallel()
	type input struct {
		name string
		text string // every byte kbcollect reads
		dir  func(t *testing.T) string
		host string // the host fixture, whose redacted records the tests share (redacted)
	}
	var inputs []input
	hosts, _ := filepath.Glob(filepath.Join(hostsDir, "*.txtar"))
	for _, file := range hosts {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, f := range a.Files {
			text.WriteString(f.Name + "\n")
			text.Write(f.Data)
		}
		inputs = append(inputs, input{"hosts/" + filepath.Base(file), text.String(), func(t *testing.T) string { return hostFixture(t, file) }, file})
	}
	captures, _ := filepath.Glob(filepath.Join(capturesDir, "*", "*.txt"))
	for _, file := range captures {
		tool, name := filepath.Base(filepath.Dir(file)), filepath.Base(file)
		inputs = append(inputs, input{"captures/" + tool + "/" + name, string(capturetest.Read(t, tool, name)),
			func(t *testing.T) string { return writeTree(t, captureLayout(t, tool, name)) }, ""})
	}
	// No real fixture holds a global or unique-local GID yet, so one
	// synthetic input plants them (sysfs GID files, show_gids, a kernel log
	// line); the real captures above cover every other kind.
	planted := map[string][]byte{
		"sos_commands/sos/placeholder":                   nil,
		"sys/class/infiniband/mlx5_0/ports/1/gids/0":     []byte("fe80:0000:0000:0000:0ac0:ebff:fe12:3456\n"),
		"sys/class/infiniband/mlx5_0/ports/1/gids/1":     []byte("2001:0db8:0042:0017:0ac0:ebff:fe12:3456\n"),
		"sys/class/infiniband/mlx5_0/ports/1/gids/2":     []byte("fd12:3456:789a:0001:0000:0000:0000:0017\n"),
		"sys/class/infiniband/mlx5_0/ports/1/gids/3":     []byte("0000:0000:0000:0000:0000:ffff:c0a8:0a11\n"),
		"sys/class/infiniband/mlx5_0/ports/1/link_layer": []byte("Ethernet\n"),
		"sys/class/infiniband/mlx5_0/ports/1/state":      []byte("4: ACTIVE\n"),
		source.SosPath("show_gids"): []byte("DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n" +
			"mlx5_0\t1\t1\t2001:0db8:0042:0017:0ac0:ebff:fe12:3456\t\t\tv2\tens1f0np0\n" +
			"mlx5_0\t1\t4\tfd00:0000:0000:00aa:0000:0000:0000:0001\t\t\tv2\tens1f0np0\n"),
		source.SosPath("dmesg"): []byte("[   10.000001] mlx5_core 0000:3b:00.1: probe of 0000:3b:00.1 failed with error -22 (GID 2001:db8:99::17 peer fd00:1:2:3::1 via 2001:db8:98::/64)\n" +
			"[   10.000002] mlx5_core 0000:3b:00.0 ens1f0np0: Link up, MAC 08:c0:eb:12:34:56, serial number MT2048X12345\n" +
			"[   10.000003] mlx5_core 0000:3b:00.0: probe of 0000:3b:00.0 failed with error -22 (board serial number MT2048X12345, port mac 08:c0:eb:12:34:56)\n"),
	}
	var plantedText strings.Builder
	for p, data := range planted {
		plantedText.WriteString(p + "\n" + string(data))
	}
	inputs = append(inputs, input{"synthetic/global-and-unique-local-gids", plantedText.String(), func(t *testing.T) string { return writeTree(t, planted) }, ""})
	if len(hosts) < 20 || len(captures) < 100 {
		t.Fatalf("found %d host fixtures and %d captures: the globs are wrong", len(hosts), len(captures))
	}
	total, withIDs := 0, 0
	kinds, reached := map[string]int{}, map[string]int{}
	for _, in := range inputs {
		ids := candidates(in.text)
		total += len(ids)
		if len(ids) > 0 {
			withIDs++
		}
		for k := range ids {
			kind, _, _ := strings.Cut(k, " ")
			kinds[kind]++
		}
		dir := in.dir(t)
		// Unredacted, the record holds some of them: they reach it, so their
		// absence below means something. Once every kind has reached an
		// unredacted record, the other inputs are not collected a third time.
		if len(ids) > 0 && !reachedAll(reached) {
			for _, l := range leaks(ids, string(kbcollect(t, "--no-redact", "--root", dir))) {
				kind, _, _ := strings.Cut(l, " ")
				reached[kind]++
			}
		}
		// An input with no candidate cannot leak one: it is collected once,
		// which still fails the test if kbcollect cannot read it.
		formats := []string{"toml", "json"}
		if len(ids) == 0 {
			formats = formats[:1]
		}
		t.Run(in.name, func(t *testing.T) {
			for _, format := range formats {
				var out string
				if in.host != "" {
					out = string(redacted(t, in.host, format))
				} else {
					out = string(kbcollect(t, "--salt", "test", "--format", format, "--root", dir))
				}
				if l := leaks(ids, out); len(l) > 0 {
					t.Errorf("%s output still holds, from its input:\n  %s", format, strings.Join(l, "\n  "))
				}
			}
		})
	}
	for _, kind := range identifierKinds {
		if reached[kind] == 0 {
			t.Errorf("no %s candidate reaches the unredacted record: the test cannot fail for %s", kind, kind)
		}
	}
	t.Logf("%d candidate identifiers from %d inputs (%d hosts, %d captures, 1 synthetic; %d inputs hold any); by kind %v; in the unredacted records until every kind had reached one %v",
		total, len(inputs), len(hosts), len(captures), withIDs, kinds, reached)
}
