package need

import (
	"regexp"
	"strings"
	"testing"
)

// dictLits are literals of the shapes a classifier gates on: sharing
// their first two bytes, one the head of another, longer than eight
// bytes, two bytes long, and with spaces and punctuation.
var dictLits = []string{"err", "error", "error recovery", "err_detected", "er", "qp", "qps", "failed with error", "fail",
	"time", "timed out", "probe of ", ": renamed from ", "[ cut here ]", "ib_query_", "mlx5_", "_rxe", "0x"}

// dictAgrees checks every literal's Has against strings.Contains at every
// from.
func dictAgrees(t *testing.T, d *Dict, h *Hits, s string) {
	t.Helper()
	d.Scan(h, s)
	for _, w := range dictLits {
		id := d.ID(w)
		for from := 0; from <= len(s); from++ {
			if got, want := h.Has(id, from), strings.Contains(s[from:], w); got != want {
				t.Fatalf("%q in %q from %d: Has %v, Contains %v", w, s, from, got, want)
			}
		}
	}
}

// TestDictScan: after a scan, Has tells whether the text from any place
// on holds each literal, as strings.Contains does; a scan forgets the one
// before it.
func TestDictScan(t *testing.T) {
	d := NewDict(append(dictLits, "err")) // a repeated literal keeps its first ID
	if d.ID("err") != 0 {
		t.Errorf("ID(err) = %d", d.ID("err"))
	}
	var h Hits
	for _, s := range []string{"", "e", "er", "err", "xerr_detectederror recovery",
		"mlx5_core 0000:0b:00.0: failed with error -22", "failed with erro", "qpqps", "timed out timed out",
		"[ cut here ]", "enp1s0_rxe", "0x0x", "ib_query_port failed (-110)", "\xff\x00err\x00", "é error"} {
		dictAgrees(t, d, &h, s)
		// Upper case is found as lower: every ASCII letter is folded.
		d.Scan(&h, strings.ToUpper(s))
		for _, w := range dictLits {
			if got, want := h.Has(d.ID(w), 0), strings.Contains(s, w); ASCII(s) && got != want {
				t.Errorf("%q in %q upper-cased: Has %v, Contains %v", w, s, got, want)
			}
		}
	}
	for _, bad := range []string{"", "x", "Err", "é"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewDict with %q did not panic", bad)
				}
			}()
			NewDict([]string{bad})
		}()
	}
}

func FuzzDictScan(f *testing.F) {
	f.Add("mlx5_core 0000:0b:00.0: failed with error -22")
	f.Add("xerr_detectederror recovery")
	d := NewDict(dictLits)
	f.Fuzz(func(t *testing.T, s string) {
		var h Hits
		dictAgrees(t, d, &h, strings.ToLower(s))
		// s as it is: the scan folds its ASCII letters.
		d.Scan(&h, s)
		folded := []byte(s)
		for i, c := range folded {
			if c >= 'A' && c <= 'Z' {
				folded[i] = c + 'a' - 'A'
			}
		}
		for _, w := range dictLits {
			if got, want := h.Has(d.ID(w), 0), strings.Contains(string(folded), w); got != want {
				t.Fatalf("%q in %q, folded: Has %v, Contains %v", w, s, got, want)
			}
		}
	})
}

// hitsAgree reports how MatchHits differs from MatchString on line, given
// a scan of prefix+line (lower-cased) when both are ASCII, else of line
// alone: "" when it does not.
func hitsAgree(r *Regexp, std *regexp.Regexp, d *Dict, prefix, line string) string {
	var h Hits
	text, off := prefix+line, len(prefix)
	if !ASCII(text) {
		text, off = line, 0
	}
	lower := strings.ToLower(text)
	d.Scan(&h, lower)
	if got, want := r.MatchHits(line, func() string { return lower[off:] }, ASCII(line), d, &h, off), std.MatchString(line); got != want {
		return "MatchHits " + map[bool]string{true: "matches", false: "does not match"}[got]
	}
	return ""
}

// agreeingDict is a Dict of the literals of agreeing's patterns, and
// those patterns compiled, bound to it.
func agreeingDict() (*Dict, []*Regexp, []*regexp.Regexp) {
	var all []string
	rs, stds := make([]*Regexp, len(agreeing)), make([]*regexp.Regexp, len(agreeing))
	for i, p := range agreeing {
		rs[i], stds[i] = MustCompile(p), regexp.MustCompile(p)
		all = append(all, rs[i].Literals()...)
	}
	return NewDict(all), rs, stds
}

// TestMatchHitsAgrees: MatchHits answers as MatchString does, on a line
// scanned alone and as the tail of a longer text whose head holds the
// patterns' literals: lines with the Kelvin sign and the dotted capital I
// (which (?i) and lower-casing fold differently), words inside words,
// '.' and ';' in a gap, and gaps one byte past their bound.
func TestMatchHitsAgrees(t *testing.T) {
	d, rs, stds := agreeingDict()
	lines := []string{
		"mlx5_core 0000:3b:00.0: wait_func:1190:(pid 7): CREATE_EQ(0x301) timeout. Will cause a leak",
		"mlx5_cmd_check: MLX5_CMD_OP_CREATE_QP(0x500) op_mod(0x0) failed, status bad parameter(0x3)",
		"bnxt_en 0000:45:00.0: hwrm_ring_free type 1 failed. rc:fff0 err:0",
		"cmd timed out", "FW command Query failed", "Error (timeout: 500015) msg {0x23 0x1}",
		"failed status -5", "ERROR=-12", "out of MEMORY", "[Create QP Error][op_code=8] status=-110 waiting=1",
		"modify_qp", "\u212Aernel out of memory", "ÉTAT", "", "qp",
		"interr to create eq", "interr, error to create eq", "Failed to create EQs", "failed to alloc port 1 now", "xerr_detected",
		"pci err_detected", "CREATE_EQ(0x301) op_mod(0x0) failed", "create_cq err", "xcreate_cq err", "init__cqs; failed",
		"Unable to add GID", "FIRMWARE OVER 20MS", "firmware over 20 MSx", "error error to create cq", "to create cq: error",
		"create cq failed to", "cq create failed", "eq failed to create eq", "\u0130\u0130 failed to create eq", "\u212a\u212a\u212a error to create eq", "fa\u0130led to create eq",
	}
	for i := range rs {
		for _, l := range lines {
			for _, prefix := range []string{"", "cmd failed to create cq timeout err_detected: ", "\u212a: "} {
				if d := hitsAgree(rs[i], stds[i], d, prefix, l); d != "" {
					t.Errorf("%q on %q after %q: %s", agreeing[i], l, prefix, d)
				}
			}
		}
	}
}

func FuzzMatchHits(f *testing.F) {
	f.Add("cmd failed: ", "mlx5_load:1053:(pid 13): Failed to create EQs")
	f.Add("", "\u212Aernel ſtate ENOMEM")
	f.Add("", "mlx5_cmd_check: MLX5_CMD_OP_CREATE_QP(0x500) op_mod(0x0) failed, status bad parameter(0x3)")
	f.Add("", "interr, error to create eq")
	f.Add("x ", "\u0130 failed to create eq")
	d, rs, stds := agreeingDict()
	f.Fuzz(func(t *testing.T, prefix, line string) {
		for i := range rs {
			if d := hitsAgree(rs[i], stds[i], d, prefix, line); d != "" {
				t.Errorf("%q on %q after %q: %s", agreeing[i], line, prefix, d)
			}
		}
	})
}

// TestMatchHitsOneDict: a pattern is bound to the first Dict it is given.
func TestMatchHitsOneDict(t *testing.T) {
	r := MustCompile(`(?i)\bfail(?:ed)? to create\b|timed out`)
	d1, d2 := NewDict(r.Literals()), NewDict(r.Literals())
	var h Hits
	d1.Scan(&h, "failed to create")
	if !r.MatchHits("failed to create", func() string { return "failed to create" }, true, d1, &h, 0) {
		t.Error("no match")
	}
	defer func() {
		if recover() == nil {
			t.Error("a second Dict was taken")
		}
	}()
	r.MatchHits("x", func() string { return "x" }, true, d2, &h, 0)
}
