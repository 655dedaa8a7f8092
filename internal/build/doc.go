// Package build provides the staged site build that kbgen build and kbgen
// serve share: it loads and lints the knowledge base, streams the host
// records one at a time through the page model, writes every page, export
// and the static search index through internal/render, and reports a
// one-line summary and, on a terminal, a progress line.
package build
