// Package content provides the knowledge content: FAQ pages (markdown with
// TOML front matter between +++ lines), troubleshooting trees (TOML) and the
// glossary, loaded strictly with positioned problems.
package content
