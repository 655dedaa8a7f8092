// Package matrix provides the curated vendor compatibility matrix: its
// documented TOML schema, a strict loader for matrix/*.toml, and the lint
// rules that keep every claim sourced and consistent.
package matrix
