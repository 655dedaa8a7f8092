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

// ErrNotArchive means the input is neither a folder nor a tarball kbcollect reads.
var ErrNotArchive = errors.New("not a folder or a .tar, .tar.gz, .tar.xz or .tar.bz2 file")

// decompress detects the compression from the first bytes, not the name.
func decompress(r io.Reader) (io.Reader, error) {
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

// readArchive indexes a tar stream in memory. Damage in the stream ends
// the read with a problem; what was read so far is kept.
func readArchive(r io.Reader, st *state, maxTotal int64) (*memTree, error) {
	dr, err := decompress(r)
	if err != nil {
		return nil, err
	}
	tree := newMemTree()
	tr := tar.NewReader(dr)
	type hardlink struct{ at, to string }
	var links []hardlink
	var total int64
	members := 0
	maxFile := st.maxFile()
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if members == 0 {
				return nil, fmt.Errorf("read tar: %w", err)
			}
			st.problem("archive", "archive is damaged after %d members (%v); the rest is unread", members, err)
			break
		}
		members++
		if members > DefaultMaxMembers {
			st.problem("archive", "more than %d members; the rest is unread", DefaultMaxMembers)
			break
		}
		p, why := cleanMember(hdr.Name)
		if why != "" {
			st.problem(printable(hdr.Name), "%s", why)
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
			data, err := io.ReadAll(io.LimitReader(tr, limit+1))
			if err != nil {
				st.problem(p, "member is damaged: %v; kept the first %d bytes", err, len(data))
			}
			if int64(len(data)) > limit {
				data = data[:limit]
				n.truncated = true
				if limit < maxFile {
					st.problem(p, "archive holds more than %d bytes of content in total; kept the first %d bytes of this member", maxTotal, limit)
				} else {
					st.problem(p, "%d bytes, larger than the per-file cap of %d bytes; kept the first %d bytes", hdr.Size, maxFile, maxFile)
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
			st.problem(l.at, "hard link to %q: %s", printable(l.to), why)
			continue
		}
		if n, ok := tree.nodes[to]; ok && n.mode.IsRegular() {
			tree.add(l.at, n)
		} else {
			st.problem(l.at, "hard link to %q, which is not in the archive", printable(l.to))
		}
	}
	stripTop(tree)
	tree.finish()
	return tree, nil
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
func stripTop(tree *memTree) {
	root := tree.nodes["."]
	if len(root.children) == 0 {
		return
	}
	top := root.children[0]
	for _, c := range root.children {
		if c != top {
			return
		}
	}
	if rootNames[top] || !tree.nodes[top].mode.IsDir() {
		return
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
