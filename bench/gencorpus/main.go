// Command gencorpus writes the synthetic benchmark corpus: go run ./bench/gencorpus -size smoke -out DIR.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rocekb/rocekb/internal/corpus"
)

func main() {
	size := flag.String("size", "smoke", "corpus size: smoke, 10k or fleet")
	out := flag.String("out", "", "folder to write (required)")
	flag.Parse()
	s, err := corpus.SizeNamed(*size)
	if err == nil && *out == "" {
		err = fmt.Errorf("-out is required")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(2)
	}
	in := corpus.Inputs{Matrix: os.DirFS("matrix"), Content: os.DirFS("content"), Hosts: os.DirFS("testdata/hosts")}
	if err := corpus.Write(*out, in, s, corpus.Seed); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}
