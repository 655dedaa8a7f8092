package content

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
)

// TestSourceAfterDropBody: a page read from a folder lets go of its
// markdown (or never holds it, LoadLate) and reads the same body again
// from its file (a BOM and CRLF line ends read as when it was parsed; a
// file without CRLF gives its own last bytes); a file changed since is
// an error, never the other text; a page not read from a folder keeps
// its markdown.
func TestSourceAfterDropBody(t *testing.T) {
	t.Parallel()
	crlf := "\ufeff+++\r\ntitle = \"T\"\r\nsummary = \"S\"\r\nsources = []\r\nlang = \"en\"\r\n+++\r\nFirst line.\r\n\r\nSecond [a](b.html).\r\n"
	for _, src := range []string{crlf, strings.ReplaceAll(crlf, "\r\n", "\n"), strings.TrimPrefix(strings.ReplaceAll(crlf, "\r\n", "\n"), "\ufeff")} {
		sourceAfterDropBody(t, src)
	}

	q, _ := ParsePage("q.md", []byte("+++\ntitle = \"T\"\n+++\nBody.\n"))
	q.DropBody()
	if got, err := q.Source(new(bytes.Buffer)); err != nil || string(got) != "Body.\n" {
		t.Fatalf("Source() of a parsed page = %q, %v", got, err)
	}
}

func sourceAfterDropBody(t *testing.T, src string) {
	t.Helper()
	fsys := fstest.MapFS{"faq/p.md": {Data: []byte(src)}}
	c, probs := Load(fsys, "content")
	if probs.Errors() > 0 || len(c.Pages) != 1 {
		t.Fatalf("Load: %d pages, %v", len(c.Pages), probs)
	}
	p := c.Pages[0]
	want := p.Body
	if !strings.HasPrefix(want, "First line.\n") {
		t.Fatalf("Body = %q", want)
	}
	p.DropBody()
	if p.Body != "" {
		t.Fatalf("DropBody kept %q", p.Body)
	}
	if got, err := p.Source(new(bytes.Buffer)); err != nil || string(got) != want {
		t.Fatalf("Source() = %q, %v; want %q", got, err, want)
	}
	// A page loaded for a late render holds no markdown and reads the
	// same body.
	late, probs := LoadLate(fsys, "content")
	if probs.Errors() > 0 || len(late.Pages) != 1 {
		t.Fatalf("LoadLate: %d pages, %v", len(late.Pages), probs)
	}
	if q := late.Pages[0]; q.Body != "" || q.BodyLine != p.BodyLine {
		t.Fatalf("LoadLate: Body %q, BodyLine %d; want none, %d", q.Body, q.BodyLine, p.BodyLine)
	} else if got, err := q.Source(new(bytes.Buffer)); err != nil || string(got) != want {
		t.Fatalf("LoadLate: Source() = %q, %v; want %q", got, err, want)
	}
	fsys["faq/p.md"] = &fstest.MapFile{Data: []byte(strings.Replace(src, "First", "Other", 1))}
	if got, err := p.Source(new(bytes.Buffer)); err == nil {
		t.Fatalf("Source() of a changed file = %q, want an error", got)
	}
}
