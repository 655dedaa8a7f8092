// Package rocekb holds the files that ship inside the binaries: the default
// templates and static files of the site.
package rocekb

import "embed"

// Assets holds templates/ and static/ so that a lone kbgen binary can build
// a site anywhere. kb.toml can override any file by name.
//
//go:embed templates static
var Assets embed.FS
