package site

import (
	"bytes"
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
