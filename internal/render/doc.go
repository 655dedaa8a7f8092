// Package render provides the site writer: it executes html/template
// templates over the page model and writes the output tree atomically, so a
// failed build never leaves a half-written folder.
package render
