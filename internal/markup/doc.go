// Package markup provides the one configured goldmark instance that turns
// content markdown into HTML everywhere in the site, with two extensions of
// our own: links to other pages written as kb:<kind>/<id> are resolved at
// build time, and citations written as [source-id] link to the page's
// source list. Both are checked, and a broken one is a problem at its
// file:line:col.
package markup
