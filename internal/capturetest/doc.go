// Package capturetest provides the real captures in testdata/captures to
// parser tests, as table-test input and as fuzz seeds.
package capturetest
