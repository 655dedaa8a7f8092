package osinfo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "ofed_info", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("NAME=\"Ubuntu\"\nID=ubuntu\nVERSION_ID=\"22.04\"\n"))
	f.Add([]byte("Linux h 6.8.0-55-generic #57-Ubuntu SMP x86_64 GNU/Linux\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := ParseOSRelease(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseUname(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ParseOFEDInfo(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseHostname(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	})
}
