//go:build !unix

package dmesg

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
