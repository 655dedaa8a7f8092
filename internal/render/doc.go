// Package render provides the site writer: a build is a stream of outputs
// (pages from html/template over the page model, static files, and any
// export) written in parallel into a temporary folder that is swapped in
// only when the build is complete, so a failed build never leaves a
// half-written site.
package render
