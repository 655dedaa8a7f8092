// Package preview provides the local preview server of a built site: it
// serves the folder (never a listing, no dot files, 404.html for a missing
// page), answers /api/search from a bleve index, watches the build's inputs
// with fsnotify and, after a quiet debounce, rebuilds through an injected
// function and tells open pages to reload over server-sent events from
// /__reload, through a script added to pages as they are served.
package preview
