package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"
)

// profileFlags adds the hidden --cpuprofile, --memprofile and
// --heapprofile flags to c, which write pprof profiles of its run (for
// the benchmarks' profiles).
func profileFlags(c *cobra.Command) {
	var cpu, mem, heap string
	fl := c.Flags()
	fl.StringVar(&cpu, "cpuprofile", "", "write a CPU profile to this file")
	fl.StringVar(&mem, "memprofile", "", "write an allocation profile to this file")
	fl.StringVar(&heap, "heapprofile", "", "write the heap profile taken when the live heap was largest to this file")
	_ = fl.MarkHidden("cpuprofile")
	_ = fl.MarkHidden("memprofile")
	_ = fl.MarkHidden("heapprofile")
	run := c.RunE
	c.RunE = func(c *cobra.Command, args []string) (err error) {
		if heap != "" {
			stop := peakHeap(heap)
			defer stop()
		}
		if cpu != "" {
			f, err := os.Create(cpu)
			if err != nil {
				return fmt.Errorf("cpu profile: %w", err)
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return fmt.Errorf("cpu profile: %w", err)
			}
			defer pprof.StopCPUProfile()
		}
		err = run(c, args)
		if mem != "" {
			f, ferr := os.Create(mem)
			if ferr != nil {
				return fmt.Errorf("memory profile: %w", ferr)
			}
			defer f.Close()
			runtime.GC()
			if perr := pprof.Lookup("allocs").WriteTo(f, 0); perr != nil && err == nil {
				err = fmt.Errorf("memory profile: %w", perr)
			}
		}
		return err
	}
}

// peakHeap samples the live heap every 50 ms and, each time it has grown
// by a tenth over the largest seen, writes the heap profile to name; the
// last one written is the profile at (about) the peak.
func peakHeap(name string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); live > peak+peak/10 {
				peak = live
				if f, err := os.Create(name); err == nil {
					_ = pprof.Lookup("heap").WriteTo(f, 0)
					_ = f.Close()
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
