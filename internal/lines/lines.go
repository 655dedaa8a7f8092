package lines

import (
	"bufio"
	"io"
	"regexp"
)

// Max is the most bytes kept of one line; the rest of the line is skipped.
const Max = 64 << 10

// Each calls fn for each line of r, without its line ending, cutting lines
// longer than Max. A final line without a newline is passed too.
func Each(r io.Reader, fn func(string)) error {
	br := bufio.NewReaderSize(r, 4<<10)
	for {
		line, err := Read(br)
		if line != "" || err == nil {
			fn(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Read returns the next line of br without its line ending, cut at Max.
// Lines that fit the reader's buffer are returned without an extra copy.
func Read(br *bufio.Reader) (string, error) {
	frag, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return string(trimEOL(frag)), err
	}
	b := append([]byte(nil), frag[:min(len(frag), Max)]...)
	for {
		frag, err := br.ReadSlice('\n')
		if len(b) < Max {
			n := min(len(frag), Max-len(b))
			b = append(b, frag[:n]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return string(trimEOL(b)), err
	}
}

// trimEOL is b without the '\r' and '\n' it ends in, as
// strings.TrimRight(s, "\r\n") cuts them, before b is copied into a
// string: the cut set is not built for every line.
func trimEOL(b []byte) []byte {
	n := len(b)
	for n > 0 && (b[n-1] == '\n' || b[n-1] == '\r') {
		n--
	}
	return b[:n]
}

// noteRE is a note a poster left after a value and the rest of the line:
// a shell comment ("driver: igb # the driver", "0a00:27ff:feda:bfb9 #dz
// dabfb9是mac后6位"), a C++ one ("hw_ver: 0x0 // hardware version") or an
// arrow pointing back at the value ("version: 1.11.16 <------- driver
// version", "… ← here").
var noteRE = regexp.MustCompile(`(?:\s+(?:#|//\s|<-|←)|<--).*$`)

// DropNote removes a poster's note from the end of a line of a tool that
// prints no '#', "//", "<-" or '←' in its values (ibv_devinfo, ethtool -i).
func DropNote(line string) string { return noteRE.ReplaceAllString(line, "") }
