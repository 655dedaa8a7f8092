// Package cli provides what kbgen and kbcollect share at the top: the exit
// code convention, printing an error exactly once, and the version string.
package cli
