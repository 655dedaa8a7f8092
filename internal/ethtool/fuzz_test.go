package ethtool

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "ethtool", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		infos, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(infos) > len(b) {
			t.Fatalf("%d blocks from %d bytes", len(infos), len(b))
		}
		for _, i := range infos {
			SplitFirmware(i.FirmwareVersion)
		}
	})
}
