package kconfig

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func parse(t *testing.T, name string) []Config {
	t.Helper()
	cfgs, err := Parse(bytes.NewReader(capturetest.Read(t, "kconfig", name)))
	if err != nil {
		t.Fatal(err)
	}
	return cfgs
}

// get returns the value of an option in a one-file capture, "" when the
// lines do not name it.
func get(t *testing.T, cfgs []Config, name string) string {
	t.Helper()
	if len(cfgs) != 1 {
		t.Fatalf("%d configurations, want 1", len(cfgs))
	}
	o, _ := cfgs[0].Get(name)
	return o.Value
}

func TestParseCaptures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file   string
		header string
		want   map[string]string // option → value ("" : not named)
	}{
		{"openeuler-5.10-arm64-hns-bnxt-re-built.txt", "Linux/arm64 5.10.0 Kernel Configuration", map[string]string{
			"CONFIG_INFINIBAND": "m", "CONFIG_INFINIBAND_HNS": "m", "CONFIG_INFINIBAND_HNS_HIP08": "y",
			"CONFIG_INFINIBAND_BNXT_RE": "m", "CONFIG_INFINIBAND_OCRDMA": "n", "CONFIG_RDMA_SIW": "n",
			"CONFIG_INFINIBAND_VIRT_DMA": "y", "CONFIG_LEDS_TRIGGER_PANIC": "n", "CONFIG_INFINIBAND_IRDMA": "",
		}},
		{"rhel-8.7-x86_64-grep-ocrdma-hns-not-set.txt", "", map[string]string{
			"CONFIG_INFINIBAND": "m", "CONFIG_INFINIBAND_OCRDMA": "n", "CONFIG_INFINIBAND_HNS": "n",
			"CONFIG_INFINIBAND_IRDMA": "m", "CONFIG_MLX5_CORE": "m", "CONFIG_MICROSOFT_MANA": "m",
			"CONFIG_BNXT": "m", "CONFIG_ICE": "m", "CONFIG_QEDE": "m",
		}},
		{"rhel-7.4-x86_64-grep-no-bnxt-re-line.txt", "", map[string]string{
			"CONFIG_BNXT": "m", "CONFIG_INFINIBAND_BNXT_RE": "", "CONFIG_INFINIBAND_AMSO1100": "n", "CONFIG_MLX5_INFINIBAND": "m",
		}},
		{"talos-1.12-config-arm64-bnxt-re-not-set.txt", "", map[string]string{
			"CONFIG_BNXT": "m", "CONFIG_INFINIBAND_BNXT_RE": "n",
		}},
	} {
		cfgs := parse(t, tc.file)
		if len(cfgs) != 1 || cfgs[0].File != "" || cfgs[0].Header != tc.header {
			t.Errorf("%s: %d configurations, first %+v", tc.file, len(cfgs), cfgs[0].Header)
			continue
		}
		for name, want := range tc.want {
			if got := get(t, cfgs, name); got != want {
				t.Errorf("%s: %s = %q, want %q", tc.file, name, got, want)
			}
		}
	}
}

// grep of several files names each line's file; the excerpt ends in a
// half line, which is skipped.
func TestParseGrepOfSeveralFiles(t *testing.T) {
	t.Parallel()
	cfgs := parse(t, "ubuntu-4.15-grep-infiniband-boot-config-star-truncated.txt")
	if len(cfgs) != 1 || cfgs[0].File != "/boot/config-4.15.0-45-generic" {
		t.Fatalf("%+v", cfgs)
	}
	if rel := Release(cfgs[0].File); rel != "4.15.0-45-generic" {
		t.Errorf("release %q", rel)
	}
	c := cfgs[0]
	if len(c.Options) != 21 {
		t.Errorf("%d options, want 21", len(c.Options))
	}
	last := c.Options[len(c.Options)-1]
	if diff := cmp.Diff(Option{Name: "CONFIG_INFINIBAND_OCRDMA", Value: "m", Line: 23}, last); diff != "" {
		t.Error(diff)
	}
	if o, _ := c.Get("CONFIG_INFINIBAND_EXP_USER_ACCESS"); o.Text() != "# CONFIG_INFINIBAND_EXP_USER_ACCESS is not set" {
		t.Errorf("%q", o.Text())
	}
}

func TestParseLayouts(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		"/boot/config-6.1.0-18-amd64:CONFIG_INFINIBAND=m",
		"/boot/config-6.8.0-40-generic:CONFIG_INFINIBAND=y",
		"/boot/config-6.1.0-18-amd64:# CONFIG_INFINIBAND_BNXT_RE is not set",
		"5582:CONFIG_INFINIBAND_USER_ACCESS=m\r",
		"  CONFIG_DEFAULT_HOSTNAME=\"(none)\"",
		"CONFIG_RDMA_RXE=n",
		"CONFIG_RDMA_RXE=m",
		"CONFIG_MLX5_CORE=",
		"#CONFIG_RDMA_SIW is not set",
	}, "\n")
	cfgs, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Config{
		{File: "/boot/config-6.1.0-18-amd64", Options: []Option{{"CONFIG_INFINIBAND", "m", 1}, {"CONFIG_INFINIBAND_BNXT_RE", "n", 3}}},
		{File: "/boot/config-6.8.0-40-generic", Options: []Option{{"CONFIG_INFINIBAND", "y", 2}}},
		{Options: []Option{{"CONFIG_INFINIBAND_USER_ACCESS", "m", 4}, {"CONFIG_DEFAULT_HOSTNAME", `"(none)"`, 5}, {"CONFIG_RDMA_RXE", "m", 7}, {"CONFIG_RDMA_SIW", "n", 9}}},
	}
	if diff := cmp.Diff(want, cfgs); diff != "" {
		t.Error(diff)
	}
}

func TestRelevant(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"CONFIG_INFINIBAND": true, "CONFIG_INFINIBAND_BNXT_RE": true, "CONFIG_MLX5_INFINIBAND": true,
		"CONFIG_RDMA_RXE": true, "CONFIG_ICE": true, "CONFIG_MANA_INFINIBAND": true, "CONFIG_NET_VENDOR_MELLANOX": true,
		"CONFIG_ICELAND": false, "CONFIG_LEDS_TRIGGER_PANIC": false, "CONFIG_CGROUP_RDMA": false, "CONFIG_NVME_RDMA": false,
	} {
		if got := Relevant(name); got != want {
			t.Errorf("Relevant(%s) = %v", name, got)
		}
	}
}
