package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profileFlags adds the hidden --cpuprofile and --memprofile flags to c,
// which write pprof profiles of its run (for the benchmarks' profiles).
func profileFlags(c *cobra.Command) {
	var cpu, mem string
	fl := c.Flags()
	fl.StringVar(&cpu, "cpuprofile", "", "write a CPU profile to this file")
	fl.StringVar(&mem, "memprofile", "", "write an allocation profile to this file")
	_ = fl.MarkHidden("cpuprofile")
	_ = fl.MarkHidden("memprofile")
	run := c.RunE
	c.RunE = func(c *cobra.Command, args []string) (err error) {
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
