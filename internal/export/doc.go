// Package export provides the site's machine-readable outputs as render
// producers: matrix.json, matrix.csv, adapter/<id>.json, hosts.csv,
// findings.json, sitemap.xml and the feed of matrix changes, feed.xml.
// Every one is deterministic: the same inputs give the same bytes.
package export
