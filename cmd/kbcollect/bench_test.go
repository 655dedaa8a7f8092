package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/snapshot/tartest"
)

// BenchmarkLiveCollect is a whole live run on the machine running it: the
// tools present run in parallel (--jobs 4) while sysfs is read.
func BenchmarkLiveCollect(b *testing.B) {
	for b.Loop() {
		s := snapshot.Live()
		s.Prefetch()
		if _, err := collectHost(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRootFixture collects the largest host fixture (a multi-vendor
// host) from a folder, through the safe folder FS.
func BenchmarkRootFixture(b *testing.B) {
	dir := materialize(b, filepath.Join(hostsDir, "multi-vendor-cx6dx-e810.txtar"))
	for b.Loop() {
		s, err := snapshot.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := collectHost(s); err != nil {
			b.Fatal(err)
		}
	}
}

// sosreportSized is an sosreport-like tarball: a host fixture, 3000 other
// files of 8 KiB (sos copies much that kbcollect never reads) and a dmesg
// of logSize bytes.
func sosreportSized(b *testing.B, compression string, logSize int) []byte {
	b.Helper()
	dir := materialize(b, filepath.Join(hostsDir, "multi-vendor-cx6dx-e810.txtar"))
	members, err := tartest.FromDir(dir, "sosreport-bench-2024-05-01-abcdef/")
	if err != nil {
		b.Fatal(err)
	}
	filler := strings.Repeat("net.ipv4.conf.all.rp_filter = 1\n", 256)
	for i := range 3000 {
		members = append(members, tartest.Member{Name: fmt.Sprintf("sosreport-bench-2024-05-01-abcdef/etc/filler/%d/conf", i), Body: filler})
	}
	log, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", "dmesg", "mlx5-cx4lx-handle_hca_cap-probe-failed-22.txt"))
	if err != nil || len(log) == 0 {
		log = []byte("[    5.100000] mlx5_core 0000:3b:00.0: firmware version: 22.36.1010\n")
	}
	big := bytes.Repeat(log, logSize/len(log)+1)[:logSize]
	members = append(members, tartest.Member{Name: "sosreport-bench-2024-05-01-abcdef/sos_commands/kernel/dmesg", Body: string(big)})
	var buf bytes.Buffer
	if err := tartest.Write(&buf, compression, members); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkOpenSosreport reads an sosreport-sized .tar.xz into memory.
func BenchmarkOpenSosreport(b *testing.B) {
	for _, comp := range []string{"xz", "gz", ""} {
		b.Run("compression="+comp, func(b *testing.B) {
			data := sosreportSized(b, comp, 4<<20)
			for b.Loop() {
				if _, err := snapshot.OpenArchive(bytes.NewReader(data), "bench.tar", 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCollectSosreport parses an sosreport-sized snapshot already in memory.
// Most of the time goes to classifying the kernel log, so it is measured
// with a typical (256 KiB) and a large (4 MiB) one.
func BenchmarkCollectSosreport(b *testing.B) {
	for _, size := range []int{256 << 10, 4 << 20} {
		b.Run(fmt.Sprintf("dmesg=%dKiB", size>>10), func(b *testing.B) {
			data := sosreportSized(b, "", size)
			s, err := snapshot.OpenArchive(bytes.NewReader(data), "bench.tar", 0)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := collectHost(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLiveFakeTools is a live run over a host fixture with a sysfs
// RDMA tree (as the host's /) with every RDMA tool present as a stand-in that takes
// 50 ms, so the cost of running ~30 tools four at a time shows. The 50 ms
// is an assumption, not a measurement of real tools.
func BenchmarkLiveFakeTools(b *testing.B) {
	dir := materialize(b, filepath.Join(hostsDir, "mlx5-cx6dx-sysfs-gids.txtar"))
	bin := b.TempDir()
	for _, tool := range []string{"ibv_devinfo", "ibv_devices", "ibstat", "ibstatus", "rdma", "show_gids", "ibdev2netdev",
		"devlink", "lspci", "lsmod", "dmesg", "journalctl", "uname", "ofed_info", "ethtool", "modinfo", "hostname"} {
		script := "#!/bin/sh\nsleep 0.05\necho " + tool + "\n"
		if err := os.WriteFile(filepath.Join(bin, tool), []byte(script), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	b.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for b.Loop() {
		s, err := snapshot.LiveAt(dir)
		if err != nil {
			b.Fatal(err)
		}
		s.Prefetch()
		h, err := collectHost(s)
		if err != nil {
			b.Fatal(err)
		}
		if !h.Host.HasRDMA {
			b.Fatal("the fixture has RDMA devices")
		}
	}
}
