// Package corpus writes a deterministic synthetic knowledge base (matrix
// entries, FAQ pages, host records) and the equivalent Hugo site, for the
// benchmarks: the same seed and size always give the same bytes.
package corpus
