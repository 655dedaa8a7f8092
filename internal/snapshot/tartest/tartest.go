package tartest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ulikunitz/xz"
)

// Member is one archive entry. A symlink has Link set. A regular file with
// Size > len(Body) is written sparse: Body, then zeros up to Size.
type Member struct {
	Name string
	Body string
	Link string
	Size int64
}

// Write writes members as a tarball compressed with "gz", "xz" or "" (none).
func Write(w io.Writer, compression string, members []Member) error {
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for _, m := range members {
		var err error
		switch {
		case m.Link != "":
			err = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: m.Name, Linkname: m.Link, Mode: 0o777, Format: tar.FormatPAX})
		case m.Size > int64(len(m.Body)):
			err = writeSparse(tw, &raw, m)
		case len(m.Name) > 0 && m.Name[len(m.Name)-1] == '/':
			err = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: m.Name, Mode: 0o755, Format: tar.FormatPAX})
		default:
			if err = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: m.Name, Mode: 0o644, Size: int64(len(m.Body)), Format: tar.FormatPAX}); err == nil {
				_, err = io.WriteString(tw, m.Body)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	switch compression {
	case "":
		_, err := w.Write(raw.Bytes())
		return err
	case "gz":
		zw := gzip.NewWriter(w)
		if _, err := zw.Write(raw.Bytes()); err != nil {
			return err
		}
		return zw.Close()
	case "xz":
		zw, err := xz.NewWriter(w)
		if err != nil {
			return err
		}
		if _, err := zw.Write(raw.Bytes()); err != nil {
			return err
		}
		return zw.Close()
	}
	return fmt.Errorf("unknown compression %q (want gz, xz or none)", compression)
}

// writeSparse writes a GNU sparse 1.0 member: a PAX header naming the real
// name and size, then a sparse map with one data block at offset 0.
// archive/tar reads this format but does not write it, so the PAX header
// is written as a regular member whose type flag is patched afterwards.
func writeSparse(tw *tar.Writer, raw *bytes.Buffer, m Member) error {
	recs := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") +
		paxRecord("GNU.sparse.name", m.Name) + paxRecord("GNU.sparse.realsize", strconv.FormatInt(m.Size, 10))
	if err := tw.Flush(); err != nil {
		return err
	}
	at := raw.Len()
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "PaxHeaders/sparse", Mode: 0o644, Size: int64(len(recs)), Format: tar.FormatUSTAR}); err != nil {
		return err
	}
	if _, err := io.WriteString(tw, recs); err != nil {
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	blk := raw.Bytes()[at : at+512]
	blk[156] = tar.TypeXHeader
	copy(blk[148:156], "        ")
	sum := 0
	for _, b := range blk {
		sum += int(b)
	}
	copy(blk[148:156], fmt.Sprintf("%06o\x00 ", sum))

	smap := []byte(fmt.Sprintf("1\n0\n%d\n", len(m.Body)))
	smap = append(smap, make([]byte, 512-len(smap))...)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "GNUSparseFile.0/sparse", Mode: 0o644, Size: int64(len(smap) + len(m.Body)), Format: tar.FormatUSTAR}); err != nil {
		return err
	}
	if _, err := tw.Write(smap); err != nil {
		return err
	}
	_, err := io.WriteString(tw, m.Body)
	return err
}

func paxRecord(k, v string) string {
	n := len(k) + len(v) + 3 // ' ', '=', '\n'
	for size := n + len(strconv.Itoa(n)); ; size++ {
		if size == n+len(strconv.Itoa(size)) {
			return strconv.Itoa(size) + " " + k + "=" + v + "\n"
		}
	}
}

// FromDir lists a folder's files, folders and symlinks (as symlinks) as
// members under prefix, in walk order.
func FromDir(dir, prefix string) ([]Member, error) {
	var out []Member
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		name := prefix + filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out = append(out, Member{Name: name, Link: target})
		case d.IsDir():
			out = append(out, Member{Name: name + "/"})
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, Member{Name: name, Body: string(b)})
		}
		return nil
	})
	return out, err
}
