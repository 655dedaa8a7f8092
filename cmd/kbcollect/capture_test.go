package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// TestCaptureRoundTripFixtures captures each host fixture as if it were the
// live host's / (files from the fixture, commands from this machine), and
// requires that parsing the capture gives the record of that same run.
func TestCaptureRoundTripFixtures(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(hostsDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no host fixtures: %v", err)
	}
	var withRDMA atomic.Int32
	t.Cleanup(func() {
		if withRDMA.Load() == 0 {
			t.Error("no fixture had an RDMA device: the round trip proves little")
		}
	})
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := hostFixture(t, file)
			live, err := snapshot.LiveAt(dir)
			if err != nil {
				t.Fatal(err)
			}
			live.NoTools = true // files are what this test is about; tools are tested in scripts
			if err := live.Record(); err != nil {
				t.Fatal(err)
			}
			live.Prefetch()
			want, err := collectHost(live)
			if err != nil {
				t.Fatal(err)
			}
			if want.Host.HasRDMA {
				withRDMA.Add(1)
			}
			var buf bytes.Buffer
			if err := live.WriteCapture(&buf, "test"); err != nil {
				t.Fatal(err)
			}
			c, err := snapshot.OpenArchive(&buf, name+".tar.gz", 0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := collectHost(c)
			if err != nil {
				t.Fatal(err)
			}
			if got.Host.SourceKind != record.KindCapture {
				t.Errorf("source_kind = %q", got.Host.SourceKind)
			}
			got.Host.SourceKind = want.Host.SourceKind
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("capture parses to another record (-live +capture):\n%s", diff)
			}
		})
	}
}
