package osinfo

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "ofed_info", "paste")
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
		if o, err := ParseRedHatRelease(bytes.NewReader(b)); err != nil || o.VersionID != "" && o.PrettyName == "" {
			t.Fatal(err, o)
		}
		if _, err := ParseHostname(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	})
}
