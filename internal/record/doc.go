// Package record defines the host record, the versioned TOML document that
// kbcollect writes for one host and kbgen reads, with its encoder and strict
// decoder.
package record
