// Package kb provides the loaded knowledge base: it reads the matrix,
// content and host records named by a site configuration, and lints them
// together so every command reports the same problems the same way.
package kb
