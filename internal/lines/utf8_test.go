package lines

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
	"unicode/utf16"
)

// utf16Of encodes s as Windows tools save it: a byte order mark, then
// UTF-16 units in the given byte order.
func utf16Of(s string, order binary.AppendByteOrder) []byte {
	b := order.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

func TestUTF8(t *testing.T) {
	t.Parallel()
	text := "PS C:\\> ibv_devinfo\r\nhca_id:\tmlx5_0\r\n\tfw_ver:\t\t\t16.35.2000\r\n網卡 𝄞 done\r\n"
	for name, in := range map[string][]byte{
		"utf-8":                 []byte(text),
		"utf-8 with its mark":   append([]byte{0xef, 0xbb, 0xbf}, text...),
		"utf-16le (PowerShell)": utf16Of(text, binary.LittleEndian),
		"utf-16be":              utf16Of(text, binary.BigEndian),
	} {
		got, err := io.ReadAll(UTF8(bytes.NewReader(in)))
		if err != nil || string(got) != text {
			t.Errorf("%s: %q (%v), want %q", name, got, err, text)
		}
	}
	// A lone surrogate and an odd last byte become U+FFFD, as utf16.Decode does.
	in := append(utf16Of("a", binary.LittleEndian), 0x00, 0xd8, 'b', 0, 7)
	if got, _ := io.ReadAll(UTF8(bytes.NewReader(in))); string(got) != "a\uFFFDb\uFFFD" {
		t.Errorf("broken UTF-16: %q", got)
	}
}

// FuzzUTF8 holds the transcoding to utf16.Decode of the whole input.
func FuzzUTF8(f *testing.F) {
	f.Add([]byte("plain"))
	f.Add(utf16Of("hca_id:\tmlx5_0 𝄞", binary.LittleEndian))
	f.Add(utf16Of("x", binary.BigEndian))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := io.ReadAll(UTF8(bytes.NewReader(b)))
		if err != nil {
			t.Fatal(err)
		}
		var order binary.ByteOrder
		switch {
		case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
			order = binary.LittleEndian
		case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
			order = binary.BigEndian
		default:
			want := bytes.TrimPrefix(b, []byte{0xef, 0xbb, 0xbf})
			if !bytes.Equal(got, want) {
				t.Fatalf("%q: %q, want %q", b, got, want)
			}
			return
		}
		body := b[2:]
		units := make([]uint16, 0, len(body)/2+1)
		for i := 0; i+1 < len(body); i += 2 {
			units = append(units, order.Uint16(body[i:]))
		}
		want := string(utf16.Decode(units))
		if len(body)%2 == 1 {
			want += "\uFFFD"
		}
		if string(got) != want {
			t.Fatalf("%q: %q, want %q", b, got, want)
		}
	})
}
