// Package site provides the page model of the knowledge base: it merges the
// matrix, content and host records into typed pages, without any file I/O.
package site
