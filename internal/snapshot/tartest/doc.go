// Package tartest provides tarball builders for tests of archive readers,
// including hostile members no ordinary tar tool writes: names that climb
// out of the archive, and members that declare gigabytes while taking a few
// bytes (GNU sparse 1.0 in PAX), so a test never writes a huge file.
package tartest
