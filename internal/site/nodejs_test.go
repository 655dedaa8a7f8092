package site

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"testing"
)

// willJS returns the start of a script that runs static/will.js under
// node (a window and a document stubbed for it), and skips the test when
// node is not installed. The caller adds the data will.js reads and what
// to print, then runs it with runNode.
func willJS(t *testing.T) *bytes.Buffer {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	src, err := os.ReadFile("../../static/will.js")
	if err != nil {
		t.Fatal(err)
	}
	js := &bytes.Buffer{}
	js.WriteString("var window = {}, document = {currentScript: null, getElementById: function () { return null; }};\n")
	js.Write(src)
	return js
}

// runNode runs a script in node and returns what it printed, failing the
// test with the end of node's errors.
func runNode(t *testing.T, script io.Reader) []byte {
	t.Helper()
	cmd := exec.Command("node", "-")
	cmd.Stdin = script
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		e := stderr.String()
		t.Fatalf("node: %v\n%s", err, e[max(0, len(e)-2000):])
	}
	return out
}

// printJudgedJS defines printJudged(out) for a script: it prints a list
// of verdicts ({l, t, x}: a level, reason texts and nearest changes, t and
// x optional) with each distinct string once and the verdicts as numbers
// into that list. The reason texts repeat across cells, adapters and
// stacks: printed in full, 38,720 verdicts were 20 MB of JSON, which
// node spent about 2 CPU-seconds writing and the test reading.
const printJudgedJS = `function printJudged(out) {
  var strs = [], at = new Map();
  function n(s) { if (!at.has(s)) { at.set(s, strs.length); strs.push(s); } return at.get(s); }
  function ns(l) { return l == null ? null : l.map(n); }
  console.log(JSON.stringify({s: strs, o: out.map(function (v) { return {l: n(v.l), t: ns(v.t), x: ns(v.x)}; })}));
}
`

// decodeJudged reads what printJudged printed.
func decodeJudged(t *testing.T, res []byte) []judgedText {
	t.Helper()
	var printed struct {
		S []string `json:"s"`
		O []struct {
			L int   `json:"l"`
			T []int `json:"t"`
			X []int `json:"x"`
		} `json:"o"`
	}
	if err := json.Unmarshal(res, &printed); err != nil {
		t.Fatalf("node output: %v\n%.2000s", err, res)
	}
	strs := func(ns []int) []string {
		if ns == nil {
			return nil
		}
		out := make([]string, len(ns))
		for i, n := range ns {
			out[i] = printed.S[n]
		}
		return out
	}
	got := make([]judgedText, len(printed.O))
	for i, o := range printed.O {
		got[i] = judgedText{L: printed.S[o.L], T: strs(o.T), X: strs(o.X)}
	}
	return got
}
