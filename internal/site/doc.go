// Package site provides the page model of the knowledge base: it merges the
// matrix, content and host records into typed pages, without any file I/O.
// A page of a kind marked Search yields its own search documents
// (Searchable), from the data it renders.
package site
