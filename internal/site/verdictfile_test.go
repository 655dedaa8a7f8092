package site

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestVerdictFileIsMarshal: each bundled adapter's verdicts file, put
// together from its parts with the cells' part its layout keeps encoded,
// is byte for byte writeJS of its whole verdictFile.
func TestVerdictFileIsMarshal(t *testing.T) {
	t.Parallel()
	s, _ := bundledSite(t)
	var got, want bytes.Buffer
	lines := 0
	for _, id := range s.VerdictAdapters() {
		got.Reset()
		want.Reset()
		if err := s.WriteAdapterVerdicts(&got, id); err != nil {
			t.Fatal(err)
		}
		tb := s.verdicts.table(id)
		name, _ := json.Marshal(id)
		if err := writeJS(&want, "rocekbVerdicts.adapter("+string(name)+",", tb.file(len(s.verdicts.stacks)), ");\n"); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%s: the file put together\n%.300s…\nwriteJS of its verdictFile\n%.300s…", id, got.Bytes(), want.Bytes())
		}
		if tb.Line != nil {
			lines++
		}
	}
	if lines == 0 {
		t.Error("no adapter's file has a firmware line: the test does not reach it")
	}
}
