package kb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/record"
)

func bundledConfig(records string) config.Config {
	cfg := config.Default()
	cfg.Matrix, cfg.Content, cfg.Records = "../../matrix", "../../content", records
	return cfg
}

var day = time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)

// recordOptions load what the tests of records read: the matrix without
// the grid lint (TestLoadLintsContentAgainstTheMatrix runs it), and no
// content; streamOptions list the records instead.
var (
	recordOptions = Options{Now: day, SkipGridLint: true, SkipContent: true}
	streamOptions = Options{Now: day, SkipGridLint: true, SkipContent: true, StreamRecords: true}
)

// TestLoadStreamsTheSameRecords: reading records one at a time gives the
// hosts that reading them all at once does, in the same order.
func TestLoadStreamsTheSameRecords(t *testing.T) {
	t.Parallel()
	cfg := bundledConfig("../../testdata/hosts")
	all, probs := Load(cfg, recordOptions)
	if all == nil {
		t.Fatal(probs)
	}
	streamed, probs := Load(cfg, streamOptions)
	if streamed == nil {
		t.Fatal(probs)
	}
	if streamed.Hosts != nil || streamed.Records == nil {
		t.Fatalf("StreamRecords read the records: %d hosts, %v", len(streamed.Hosts), streamed.Records)
	}
	var ids []string
	if _, err := streamed.Records.Each(func(h *record.Host) error { ids = append(ids, h.Host.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(ids) != len(all.Hosts) || len(ids) < 20 {
		t.Fatalf("streamed %d hosts, loaded %d", len(ids), len(all.Hosts))
	}
	for i, h := range all.Hosts {
		if ids[i] != h.Host.ID {
			t.Errorf("host %d: streamed %q, loaded %q", i, ids[i], h.Host.ID)
		}
	}
	if !strings.HasPrefix(ids[0], "(") {
		t.Errorf("a record without a host id should be named after its file, got %q", ids[0])
	}
}

func TestLoadRecordProblems(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("schema = 1\nnot_a_key = 2\n"), 0o644)
	k, probs := Load(bundledConfig(dir), recordOptions)
	if k != nil || !strings.Contains(probs.String(), filepath.Join(dir, "bad.toml")+":2:1:") {
		t.Errorf("a bad record should fail the load at its file:line:col, got:\n%s", probs)
	}
	k, probs = Load(bundledConfig(dir), streamOptions)
	if k == nil {
		t.Fatal(probs)
	}
	probs, _ = k.Records.Each(func(*record.Host) error { return nil })
	if !strings.Contains(probs.String(), "bad.toml:2:1:") {
		t.Errorf("streamed record problems lack the position:\n%s", probs)
	}
	k, probs = Load(bundledConfig(filepath.Join(dir, "missing")), recordOptions)
	if k == nil || len(k.Hosts) != 0 {
		t.Errorf("a missing records folder holds no records: %v %v", k, probs)
	}
}

func TestLoadLintsContentAgainstTheMatrix(t *testing.T) {
	t.Parallel()
	k, probs := Load(bundledConfig(""), Options{Now: day, SkipRecords: true})
	if k == nil || probs.Errors() > 0 {
		t.Fatalf("the bundled knowledge base should lint clean:\n%s", probs)
	}
	lo := contentLintOptions(k.Matrix, true, k.Config, Options{Now: day})
	if lo.Refs == nil || !lo.Refs.Adapters["connectx-5"] || !lo.Refs.Sources["pciids"] || len(lo.Checks) == 0 {
		t.Errorf("content lint options miss matrix ids or checks: %+v", lo.Refs)
	}
	if lo := contentLintOptions(nil, false, k.Config, Options{Now: day}); lo.Refs != nil {
		t.Error("without a matrix, content lint must not check matrix ids")
	}
}

// TestEachStopsAtTheFirstError: records are decoded ahead, in parallel, but
// fn sees them in file order and nothing after the error fn returns.
func TestEachStopsAtTheFirstError(t *testing.T) {
	t.Parallel()
	k, probs := Load(bundledConfig("../../testdata/hosts"), streamOptions)
	if k == nil {
		t.Fatal(probs)
	}
	stop := errors.New("stop")
	var seen []string
	_, err := k.Records.Each(func(h *record.Host) error {
		seen = append(seen, h.Host.ID)
		if len(seen) == 3 {
			return stop
		}
		return nil
	})
	if err != stop || len(seen) != 3 {
		t.Fatalf("Each returned %v after %d records, want the error after 3", err, len(seen))
	}
	var all []string
	if _, err := k.Records.Each(func(h *record.Host) error { all = append(all, h.Host.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(all[:3], ",") != strings.Join(seen, ",") {
		t.Errorf("stopped run saw %v, full run starts %v", seen, all[:3])
	}
}

// BenchmarkEach reads and decodes the fixture records, as a build does.
func BenchmarkEach(b *testing.B) {
	k, probs := Load(bundledConfig("../../testdata/hosts"), Options{Now: day, StreamRecords: true})
	if k == nil {
		b.Fatal(probs)
	}
	for b.Loop() {
		if _, err := k.Records.Each(func(*record.Host) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSkipBodyLinks: a load that leaves body links to the build still
// reports them when it fails for another reason, so every problem is
// reported together.
func TestSkipBodyLinks(t *testing.T) {
	t.Parallel()
	page := func(front string) []byte {
		return []byte("+++\ntitle = \"T\"\n" + front + "lang = \"en\"\nlast_verified = 2026-11-30\nsources = [\"pciids\"]\n+++\nSee [d](kb:distro/nope).\n")
	}
	load := func(front string, skip bool, late ...bool) (bool, string) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "faq"), 0o755)
		os.WriteFile(filepath.Join(dir, "faq", "p.md"), page(front), 0o644)
		cfg := bundledConfig("")
		cfg.Content = dir
		// The grid lint judges the matrix alone: no page's links.
		k, probs := Load(cfg, Options{Now: day, SkipRecords: true, SkipGridLint: true, SkipBodyLinks: skip, LateBodies: len(late) > 0})
		return k != nil, strings.ReplaceAll(probs.String(), dir, "content")
	}
	const broken = `broken link "kb:distro/nope"`
	if ok, probs := load("summary = \"S\"\n", false); ok || !strings.Contains(probs, broken) {
		t.Errorf("lint: want the broken link, got ok=%v\n%s", ok, probs)
	}
	if ok, probs := load("summary = \"S\"\n", true); !ok || strings.Contains(probs, broken) {
		t.Errorf("SkipBodyLinks: want the link left to the build, got ok=%v\n%s", ok, probs)
	}
	if ok, probs := load("", true); ok || !strings.Contains(probs, broken) || !strings.Contains(probs, "summary is required") {
		t.Errorf("SkipBodyLinks on a failing load: want both problems, got ok=%v\n%s", ok, probs)
	}
	// A load for a build whose pages hold no markdown (LateBodies)
	// checks the bodies it reads again, at the same places.
	_, want := load("", true)
	if ok, probs := load("", true, true); ok || probs != want {
		t.Errorf("LateBodies on a failing load: got ok=%v\n%s\nwant\n%s", ok, probs, want)
	}
}
