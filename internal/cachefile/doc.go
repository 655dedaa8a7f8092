// Package cachefile writes a file of work kept between runs (kbgen's
// caches) whole or not at all.
package cachefile
