// Package diag provides positioned problems (file:line:col) for files that
// people write, and strict TOML decoding that reports every unknown key with
// its position.
package diag
