//go:build deps

// This file pins modules that the design card fixes but that no package
// imports yet (bleve arrives with the search issue), so go mod tidy keeps
// them in go.mod. It is never built.
package rocekb

import _ "github.com/blevesearch/bleve/v2"
