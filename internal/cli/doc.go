// Package cli provides what kbgen and kbcollect share at the top: the exit
// code convention, printing an error exactly once, the version string, and
// where and under what program identity work is cached between runs.
package cli
