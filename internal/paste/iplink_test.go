package paste

import (
	"fmt"
	"strings"
	"testing"
)

// dropLines is text without the lines holding any of the words: a capture
// with its command lines taken away.
func dropLines(text string, words ...string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		keep := true
		for _, w := range words {
			keep = keep && !strings.Contains(l, w)
		}
		if keep {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestIPLink: ip -d link after its command line ("ip -d link show <dev>",
// "ip l show <dev>", by any prefix of link) or recognised by a link's
// first line, with or without quote marks and backticks, is filed as the
// ip row; -d's parentdev ties each netdev to its PCI function, and its
// mtu and state are read. Before: "no command output recognised".
func TestIPLink(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, line string }{
		{"mlx5-cx4lx-switchdev-ip-d-link-pf-vf-and-representors.txt", "ip -d link show"},
		{"sriov-operator-ip-l-show-8-vfs-blank-line-in-fence.txt", "ip l show"},
		{"ip-s-link-show-bond1-mtu-9000-inline-backticks-truncated.txt", "ip -s link show"},
		{"pf-down-noop-mail-quoted-backticks-two-netdevs.txt", "ip link show"},
	} {
		text := body(t, "ip", tc.file)
		for i, in := range []string{text, dropLines(text, tc.line)} {
			secs, _, err := Split(strings.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, s := range secs {
				found = found || strings.HasPrefix(s.Command, "ip ")
			}
			if !found {
				t.Errorf("%s (%d): no ip section in %+v", tc.file, i, secs)
			}
		}
	}
	h := collectText(t, body(t, "ip", "mlx5-cx4lx-switchdev-ip-d-link-pf-vf-and-representors.txt"))
	got := map[string]string{}
	for _, n := range h.Netdevs {
		if n.MTU != nil {
			got[n.Name] = n.PCIAddress + " " + n.State + " " + n.Link
		}
	}
	want := map[string]string{"enp1s0f0np0": "0000:01:00.0 UP up", "enp1s0f0npf0vf0": "0000:01:00.0 UP up", "enp1s0f1npf1vf0": "0000:01:00.1 UP up"}
	if len(got) != len(want) {
		t.Errorf("netdevs %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

// TestInterrupts: /proc/interrupts after "cat /proc/interrupts" (a grep
// of it too), or recognised by its CPU header or an IRQ line of an MSI
// chip, is filed at proc/interrupts. Before: not read.
func TestInterrupts(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"mlx5-two-functions-ir-pci-msix-grep-mlx-12-cpus.txt", "ice-e810-ir-pci-msi-16-cpus-truncated.txt",
		"mlx4-azure-hyperv-pcie-msi-8-cpus-truncated.txt", "igb-enp2s0-grep-pipe-quoted-commit.txt",
	} {
		text := body(t, "interrupts", name)
		for i, in := range []string{text, dropLines(text, "/proc/interrupts")} {
			secs, _, err := Split(strings.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, s := range secs {
				found = found || s.Path == "proc/interrupts"
			}
			if !found {
				t.Errorf("%s (%d): not filed at proc/interrupts: %+v", name, i, secs)
			}
		}
	}
}

// TestIPAddressFillsKnownNetdevs: ip address's link lines fill the netdev
// another output of the same paste named (rdma link's p1p1, ethtool -i's
// docker0) with its mtu, state and link. Before: the ip addr lines were
// left out and the netdevs had no link.
func TestIPAddressFillsKnownNetdevs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ tool, file, netdev, want string }{
		{"rdma", "rxe-link-show-p1p1-then-ip-addr-two-netdevs.txt", "p1p1", "1500 UP up"},
		{"ethtool", "bridge-docker0-bus-info-na-no-expansion-rom-zh.txt", "docker0", "1500 DOWN down"},
	} {
		h := collectText(t, body(t, tc.tool, tc.file))
		got := ""
		for _, n := range h.Netdevs {
			if n.Name == tc.netdev && n.MTU != nil {
				got = fmt.Sprintf("%d %s %s", *n.MTU, n.State, n.Link)
			}
		}
		if got != tc.want {
			t.Errorf("%s: %s %q, want %q (%+v)", tc.file, tc.netdev, got, tc.want, h.Netdevs)
		}
		if len(h.Netdevs) != 1 {
			t.Errorf("%s: netdevs %+v: only the one named elsewhere is kept", tc.file, h.Netdevs)
		}
	}
}

// TestPromptFolderAfterSpace: "root@clr-… ~ # cat /proc/interrupts" (a
// Clear Linux guest's root prompt, user@host then the folder after a
// space) is a prompt: the output after it is filed as named by it.
// Before, the prompt was not taken for one and the lines were left out.
func TestPromptFolderAfterSpace(t *testing.T) {
	t.Parallel()
	secs, _, err := Split(strings.NewReader(body(t, "interrupts", "i40e-virtio-pci-msi-domain-0001-vfio-guest-truncated.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 1 || !secs[0].Named || secs[0].Path != "proc/interrupts" || secs[0].Lines != 14 {
		t.Fatalf("%+v", secs)
	}
}
