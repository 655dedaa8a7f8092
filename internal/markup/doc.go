// Package markup provides the one configured goldmark instance that turns
// content markdown into HTML everywhere in the site.
package markup
