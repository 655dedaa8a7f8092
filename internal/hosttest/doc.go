// Package hosttest gives the engine packages' tests their shared fixtures:
// the test matrix (testdata/matrix), hand-built host records and the
// golden records kbcollect wrote from real captures (testdata/hosts).
package hosttest
