// Package config provides the site configuration, kb.toml: which folders a
// knowledge base is read from and where its site is written.
package config
