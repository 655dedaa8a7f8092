// Package scripttest provides testscript commands shared by the kbgen and
// kbcollect script tests, such as asserting an exact exit status.
package scripttest
