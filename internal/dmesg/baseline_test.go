package dmesg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/dmesg/internal/baseline"
	"github.com/rocekb/rocekb/internal/lines"
)

// sameAsBaseline parses in with ParseLog and with the frozen classifier
// of internal/dmesg/internal/baseline and reports how the two Logs differ,
// "" when they are the same, byte for byte once encoded.
func sameAsBaseline(t testing.TB, in []byte) string {
	t.Helper()
	got, gerr := ParseLog(bytes.NewReader(in))
	want, werr := baseline.ParseLog(bytes.NewReader(in))
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		return fmt.Sprintf("error %v, baseline %v", gerr, werr)
	}
	gb, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	wb, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(gb, wb) {
		return ""
	}
	var w Log
	if err := json.Unmarshal(wb, &w); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(w, got); d != "" {
		return d
	}
	return fmt.Sprintf("encodings differ:\n%s\n%s", wb, gb)
}

// TestMatchesBaseline: ParseLog gives the same Log as the classifier
// before its restructure for speed, on every capture and host fixture
// file as captured, and on each kernel log as pasted in each of
// pasteVariants' ways.
func TestMatchesBaseline(t *testing.T) {
	t.Parallel()
	in := logInputs(t)
	if len(in) < 400 {
		t.Fatalf("only %d inputs", len(in))
	}
	events := map[string]int{}
	for name, b := range in {
		for _, v := range variantsOf(name) {
			vb := v.f(b)
			if d := sameAsBaseline(t, vb); d != "" {
				t.Errorf("%s (%s): ParseLog differs from the baseline (-baseline +now):\n%s", name, v.name, d)
			}
			lg, _ := ParseLog(bytes.NewReader(vb))
			for _, e := range lg.Events {
				events[e.Kind]++
			}
		}
	}
	// The comparison means something only if the inputs classify, into
	// many kinds.
	if len(events) < 20 {
		t.Errorf("only %d kinds of event in the inputs: %v", len(events), events)
	}
	t.Logf("%d inputs, events by kind: %v", len(in), events)
}

// TestMatchesBaselineBenchLog: the same on BenchmarkParseLog4MiB's log,
// which runs past MaxEvents and every per-device bound.
func TestMatchesBaselineBenchLog(t *testing.T) {
	t.Parallel()
	if d := sameAsBaseline(t, log4MiB(t)); d != "" {
		t.Errorf("ParseLog differs from the baseline (-baseline +now):\n%s", d)
	}
}

// FuzzMatchesBaseline: on any input, ParseLog gives the baseline's Log.
func FuzzMatchesBaseline(f *testing.F) {
	capturetest.Seed(f, "dmesg", "kernellog", "paste")
	f.Fuzz(func(t *testing.T, b []byte) {
		if d := sameAsBaseline(t, b); d != "" {
			t.Fatalf("ParseLog differs from the baseline (-baseline +now):\n%s", d)
		}
	})
}

// TestMatchesBaselineReading: lines around and past lines.Max (cut
// there), endings of \r\n and \r, a last line without one, and a reader
// that fails part way give the baseline's Log and error.
func TestMatchesBaselineReading(t *testing.T) {
	t.Parallel()
	long := func(n int, end string) string {
		return "[    1.000000] mlx5_core 0000:01:00.0: " + strings.Repeat("x", n) + " failed with error -22" + end
	}
	var b strings.Builder
	for _, n := range []int{lines.Max - 63, lines.Max - 62, lines.Max - 61, lines.Max - 60, lines.Max - 59, lines.Max, 70000} {
		for _, end := range []string{"\n", "\r\n", "\r\r\n", "\n\r"} {
			b.WriteString(long(n, end))
		}
	}
	b.WriteString(long(lines.Max, ""))
	if d := sameAsBaseline(t, []byte(b.String())); d != "" {
		t.Errorf("long lines: ParseLog differs from the baseline (-baseline +now):\n%s", d)
	}
	for _, n := range []int{0, 100, 5000, 70000} {
		in := []byte(b.String())[:n]
		failing := func() io.Reader {
			return io.MultiReader(bytes.NewReader(in), iotest.ErrReader(errors.New("disk gone")))
		}
		got, gerr := ParseLog(failing())
		want, werr := baseline.ParseLog(failing())
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("after %d bytes: error %v, baseline %v", n, gerr, werr)
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if !bytes.Equal(gb, wb) {
			t.Errorf("after %d bytes and an error: ParseLog differs from the baseline:\n%s\n%s", n, wb, gb)
		}
	}
}
