// Package search provides full-text search over the knowledge base: a
// domain analyzer (identifiers kept whole and split, matrix aliases,
// versions by prefix, CJK bigrams, noise in pasted log lines dropped), a
// bleve index with facets and snippets, an HTTP handler, and a static,
// sharded index that the site's search.js loads from file:// or HTTP.
package search
