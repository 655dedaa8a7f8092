package modprobe

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "modprobe", "cmdline")
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, parse := range []func([]byte) ([]Rule, error){
			func(b []byte) ([]Rule, error) { return Parse(bytes.NewReader(b)) },
			func(b []byte) ([]Rule, error) { return ParseGrep(bytes.NewReader(b)) },
			func(b []byte) ([]Rule, error) { return ParseCmdline(bytes.NewReader(b)) },
		} {
			rules, err := parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(rules) > MaxRules {
				t.Fatalf("%d rules", len(rules))
			}
			for _, r := range rules {
				if r.Module == "" || strings.Contains(r.Module, "-") || r.Directive == "" || r.Line < 0 {
					t.Fatalf("bad rule %+v", r)
				}
			}
		}
	})
}
