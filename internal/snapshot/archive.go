package snapshot

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/ulikunitz/xz"
)

// Limits on an archive read into memory. Each member is capped at the
// snapshot's per-file cap; these bound the whole index.
const (
	DefaultMaxTotal   = 1 << 30 // bytes of member content kept in memory
	DefaultMaxMembers = 500_000 // members indexed
)

// archiveLimits bound one archive read. OpenArchive uses productionLimits;
// the fuzz target passes small ones, so a mutated input stops at a few
// kilobytes and the fuzzer's minimizer can cut the unread tail at once.
type archiveLimits struct {
	total   int64 // bytes of names and member content kept
	members int   // members indexed
	xzDict  int64 // largest LZMA2 dictionary an .xz stream may ask for
	stream  int64 // bytes of the decompressed tar stream read; 0 = no limit
}

var productionLimits = archiveLimits{total: DefaultMaxTotal, members: DefaultMaxMembers, xzDict: maxXZDict}

// ErrNotArchive means the input is neither a folder nor a tarball kbcollect reads.
var ErrNotArchive = errors.New("not a folder or a .tar, .tar.gz, .tar.xz or .tar.bz2 file")

// decompress detects the compression from the first bytes, not the name.
func decompress(r io.Reader, maxDict int64) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(512)
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, nil
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		if dict, ok := xzDictSize(head); ok && dict > maxDict {
			return nil, fmt.Errorf("xz: the stream asks for a %d MiB dictionary, over the %d MiB kbcollect allows; recompress it with xz -9 or lower", dict>>20, maxDict>>20)
		}
		zr, err := xz.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("xz: %w", err)
		}
		return zr, nil
	case bytes.HasPrefix(head, []byte("BZh")):
		return bzip2.NewReader(br), nil
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return nil, errors.New("zstd-compressed tarballs are not supported; decompress it first (zstd -d) and pass the .tar")
	case len(head) >= 262 && (string(head[257:262]) == "ustar"):
		return br, nil
	case len(head) == 0:
		return nil, errors.New("empty file")
	}
	return nil, ErrNotArchive
}

// maxXZDict bounds the LZMA2 dictionary an .xz stream may make the
// decoder allocate. xz's presets use at most 64 MiB (-9); the format allows
// up to 4 GiB, which a hostile file could ask for.
const maxXZDict = 256 << 20

// xzDictSize reads the LZMA2 dictionary size from the first block header
// of an .xz stream (xz file format 1.0.4, sections 2.1.1 and 3.1; LZMA2
// filter id 0x21, one property byte). Later blocks are not checked.
func xzDictSize(head []byte) (int64, bool) {
	const streamHeader = 12
	if len(head) < streamHeader+2 {
		return 0, false
	}
	b := head[streamHeader:]
	size := (int(b[0]) + 1) * 4
	if b[0] == 0 || len(b) < size {
		return 0, false // an index, not a block, or a short read
	}
	flags := b[1]
	i := 2
	uvarint := func() (uint64, bool) {
		var v uint64
		for shift := 0; i < size && shift < 63; shift += 7 {
			c := b[i]
			i++
			v |= uint64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	if flags&0x40 != 0 {
		if _, ok := uvarint(); !ok {
			return 0, false
		}
	}
	if flags&0x80 != 0 {
		if _, ok := uvarint(); !ok {
			return 0, false
		}
	}
	for range int(flags&0x03) + 1 {
		id, ok1 := uvarint()
		n, ok2 := uvarint()
		if !ok1 || !ok2 || i+int(n) > size {
			return 0, false
		}
		if id == 0x21 && n == 1 {
			v := b[i] & 0x3f
			if v > 40 {
				return 0, false
			}
			if v == 40 {
				return 1<<32 - 1, true
			}
			return int64(2|(v&1)) << (v/2 + 11), true
		}
		i += int(n)
	}
	return 0, false
}

// readArchive indexes a tar stream in memory. Damage in the stream ends
// the read with a problem; what was read so far is kept.
func readArchive(r io.Reader, st *state, lim archiveLimits) (*memTree, error) {
	dr, err := decompress(r, lim.xzDict)
	if err != nil {
		return nil, err
	}
	if lim.stream > 0 {
		dr = io.LimitReader(dr, lim.stream)
	}
	maxTotal := lim.total
	tree := newMemTree()
	tail := &tailReader{r: dr}
	tr := tar.NewReader(tail)
	type hardlink struct{ at, to string }
	var links []hardlink
	var total int64
	members := 0
	maxFile := st.maxFile()
	// Member problems are kept until the wrapper folder is known, so they
	// name paths as the rest of kbcollect sees them.
	var probs []problemKey
	add := func(source, format string, args ...any) {
		probs = append(probs, problemKey{source, fmt.Sprintf(format, args...)})
	}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			// archive/tar accepts a stream that stops between members; a
			// complete archive ends with zero blocks.
			if !tail.endsWithZeroBlock() && members > 0 {
				add("archive", "archive ends without its end-of-archive marker after %d members; it may be cut short", members)
			}
			break
		}
		if err != nil {
			if members == 0 {
				return nil, fmt.Errorf("read tar: %w", err)
			}
			add("archive", "archive is damaged after %d members (%v); the rest is unread", members, err)
			break
		}
		members++
		if members > lim.members {
			add("archive", "more than %d members; the rest is unread", lim.members)
			break
		}
		// Names and link targets count against the budget too: PAX lets
		// each be up to a megabyte.
		total += int64(len(hdr.Name) + len(hdr.Linkname))
		if total > maxTotal {
			add("archive", "archive holds more than %d bytes of names and content; the rest is unread", maxTotal)
			break
		}
		p, why := cleanMember(hdr.Name)
		if why != "" {
			add(printable(hdr.Name), "%s", why)
			continue
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			tree.add(p, &memNode{mode: fs.ModeDir})
		case tar.TypeSymlink:
			tree.add(p, &memNode{mode: fs.ModeSymlink, link: hdr.Linkname})
		case tar.TypeLink:
			links = append(links, hardlink{p, hdr.Linkname})
		case tar.TypeReg, tar.TypeGNUSparse, 0: // 0 is the pre-POSIX regular file flag
			n := &memNode{size: hdr.Size}
			limit := maxFile
			if left := maxTotal - total; left < limit {
				limit = max(left, 0)
			}
			data, err := readMember(tr, hdr.Size, limit)
			if err != nil {
				add(p, "member is damaged: %v; kept the first %d bytes", err, len(data))
			}
			if int64(len(data)) > limit {
				data = data[:limit]
				n.truncated = true
				if limit < maxFile {
					add(p, "archive holds more than %d bytes of content in total; kept the first %d bytes of this member", maxTotal, limit)
				} else {
					add(p, "%d bytes, larger than the per-file cap of %d bytes; kept the first %d bytes", hdr.Size, maxFile, maxFile)
				}
			}
			total += int64(len(data))
			n.data = data
			tree.add(p, n)
		default:
			// Devices, FIFOs and the like have no content worth reading.
		}
	}
	for _, l := range links {
		to, why := cleanMember(l.to)
		if why != "" {
			add(l.at, "hard link to %q: %s", printable(l.to), why)
			continue
		}
		if n, ok := tree.nodes[to]; ok && n.mode.IsRegular() {
			tree.add(l.at, n)
		} else {
			add(l.at, "hard link to %q, which is not in the archive", printable(l.to))
		}
	}
	top := stripTop(tree)
	tree.finish()
	for _, p := range probs {
		src := p.source
		if top != "" {
			src = strings.TrimPrefix(src, top+"/")
		}
		st.problem(src, "%s", p.msg)
	}
	return tree, nil
}

// exactRead is the largest member readMember reads into a buffer of the
// size its header gives; a larger one may lie about its size, and grows
// a buffer as it is read.
const exactRead = 1 << 20

// readMember reads up to limit+1 bytes of a member whose header says it
// holds size bytes, as io.ReadAll(io.LimitReader(r, limit+1)) does but
// into one buffer of the right size: ReadAll's doubling was two thirds of
// what opening an sosreport allocated.
func readMember(r io.Reader, size, limit int64) ([]byte, error) {
	n := min(size, limit+1)
	if n < 0 || n > exactRead {
		return io.ReadAll(io.LimitReader(r, limit+1))
	}
	buf := make([]byte, n)
	k := 0
	for k < len(buf) {
		m, err := r.Read(buf[k:])
		k += m
		if err == io.EOF {
			return buf[:k], nil
		}
		if err != nil {
			return buf[:k], err
		}
	}
	if n <= limit {
		// The header's size was read in full; a member holds no more, but
		// a reader that gives more is read on, as ReadAll would.
		var one [1]byte
		m, err := r.Read(one[:])
		if m == 0 && err != nil {
			if err == io.EOF {
				err = nil
			}
			return buf, err
		}
		buf = append(buf, one[:m]...)
		rest, err := io.ReadAll(io.LimitReader(r, limit+1-int64(len(buf))))
		return append(buf, rest...), err
	}
	return buf, nil
}

// tailReader remembers the last block read, to tell a complete tar stream
// from one cut short.
type tailReader struct {
	r    io.Reader
	last [512]byte
	n    int // bytes in last
}

func (t *tailReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n >= len(t.last) {
		copy(t.last[:], p[n-len(t.last):n])
		t.n = len(t.last)
	} else if n > 0 {
		keep := min(t.n, len(t.last)-n)
		copy(t.last[:keep], t.last[t.n-keep:t.n])
		copy(t.last[keep:], p[:n])
		t.n = keep + n
	}
	return n, err
}

func (t *tailReader) endsWithZeroBlock() bool {
	if t.n < len(t.last) {
		return false
	}
	for _, b := range t.last {
		if b != 0 {
			return false
		}
	}
	return true
}

// rootNames are top-level names of a tree rooted like / or laid out like
// an sosreport; a single top folder with any other name (sosreport-host-…)
// is a wrapper to strip.
var rootNames = map[string]bool{
	"sys": true, "proc": true, "etc": true, "var": true, "usr": true, "lib": true, "run": true,
	"boot": true, "dev": true, "sos_commands": true, "sos_reports": true, "sos_logs": true,
}

// stripTop removes a single wrapping top folder, as sos writes
// sosreport-<host>-<date>/ around its tree.
func stripTop(tree *memTree) string {
	root := tree.nodes["."]
	if len(root.children) == 0 {
		return ""
	}
	top := root.children[0]
	for _, c := range root.children {
		if c != top {
			return ""
		}
	}
	if rootNames[top] || !tree.nodes[top].mode.IsDir() {
		return ""
	}
	nodes := map[string]*memNode{}
	for p, n := range tree.nodes {
		switch {
		case p == ".":
		case p == top:
			nodes["."] = n
		case strings.HasPrefix(p, top+"/"):
			nodes[strings.TrimPrefix(p, top+"/")] = n
		}
	}
	tree.nodes = nodes
	return top
}

// printable keeps a hostile member name readable in a problem entry.
func printable(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
