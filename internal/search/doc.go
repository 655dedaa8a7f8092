// Package search provides full-text search over the knowledge base: a
// domain analyzer (identifiers kept whole and split, matrix aliases,
// versions by prefix, CJK bigrams, noise in pasted log lines dropped), an
// in-memory index with facets and snippets that scores as bleve does
// (score.go: each term's documents with its precomputed weight in them;
// the tests hold it to a bleve index of the same documents), an HTTP
// handler, and a static, sharded index that the site's search.js loads
// from file:// or HTTP.
//
// Both engines read a query the same way (lines.go, fuzzy.go, rank.go):
// log headers removed, a short query's typos corrected to known names,
// each line matched against the message templates (templates.toml) whose
// pages rank first, then knowledge pages by score × kind and language
// boost, then host reports unless the query names a host.
package search
