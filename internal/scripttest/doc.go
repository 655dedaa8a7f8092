// Package scripttest provides testscript commands shared by the kbgen and
// kbcollect script tests, such as asserting an exact exit status or running
// a command in the test process.
package scripttest
