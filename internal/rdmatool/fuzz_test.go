package rdmatool

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "rdma")
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := ParseLink(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if qps, err := ParseResQP(bytes.NewReader(b)); err != nil || len(Devices(qps)) > len(qps) {
			t.Fatal(err)
		}
		if _, err := ParseRes(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseStat(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseDev(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if s, ok, err := ParseSystem(bytes.NewReader(b)); err != nil || ok && s.Netns != "shared" && s.Netns != "exclusive" {
			t.Fatal(s, err)
		}
	})
}
