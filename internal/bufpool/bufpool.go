package bufpool

import (
	"bytes"
	"sync"
)

// Max is the largest capacity a returned buffer may have and still be
// kept: a few outputs are megabytes, and holding them would pin memory
// that most renders never need.
const Max = 1 << 20

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Get lends an empty buffer.
func Get() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

// Put takes b back, emptied, unless it grew past Max. b must not be used
// after: what was read from it (its Bytes) must have been copied out.
func Put(b *bytes.Buffer) {
	if b.Cap() > Max {
		return
	}
	b.Reset()
	buffers.Put(b)
}
