package bufpool

import (
	"bytes"
	"testing"
)

// TestPut: a buffer comes back empty, and one that grew past Max is not
// kept (sync.Pool may drop any buffer, so only the large one's absence
// is certain: Get must never return it).
func TestPut(t *testing.T) {
	b := Get()
	if b.Len() != 0 {
		t.Fatalf("Get lent a buffer holding %d bytes", b.Len())
	}
	b.WriteString("page")
	Put(b)
	if c := Get(); c.Len() != 0 {
		t.Fatalf("a buffer came back holding %q", c.String())
	}
	big := bytes.NewBuffer(make([]byte, 0, Max+1))
	Put(big)
	for range 100 {
		if Get() == big {
			t.Fatal("a buffer larger than Max was kept")
		}
	}
}
