// Package render provides the site writer: a build is a stream of outputs
// (pages from html/template over the page model, static files, and any
// export) written in parallel into a temporary folder that is swapped in
// only when the build is complete, so a failed build never leaves a
// half-written site. The swap is one step where the system can
// (renameat2 RENAME_EXCHANGE on Linux), builds into one output are
// serialized by a lock beside it (.<out>.lock), and each build first
// removes what killed builds left beside the output (.<out>.tmp-*).
package render
