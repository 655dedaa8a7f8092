// Package search provides full-text search over the knowledge base: a
// domain analyzer (identifiers kept whole and split, matrix aliases,
// versions by prefix, CJK bigrams, noise in pasted log lines dropped); a
// bleve index of the documents, whose postings the server reads once into
// a score table per term (score.go) and answers queries from, with facets
// and snippets, scores equal to bleve's; an HTTP handler; and a static,
// sharded index that the site's search.js loads from file:// or HTTP.
//
// Both engines read a query the same way (lines.go, fuzzy.go, rank.go):
// log headers removed, a short query's typos corrected to known names,
// each line matched against the message templates (templates.toml) whose
// pages rank first, then knowledge pages by score × kind and language
// boost, then host reports unless the query names a host.
package search
