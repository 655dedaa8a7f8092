// Package site provides the page model of the knowledge base: it merges the
// matrix, content and host records into pages and their data, without any
// file I/O, and reads the site configuration (kb.toml).
package site
