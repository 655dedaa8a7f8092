// Package page provides the site's page kinds and its one URL scheme: the
// output path of every page from its kind and id, the parser for the
// "kind/id" references content and the engine write, and relative links
// between pages so a site works from file:// and under any sub-path.
package page
