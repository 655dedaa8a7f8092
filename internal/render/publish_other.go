//go:build !linux

package render

// exchange is Linux's renameat2 RENAME_EXCHANGE; elsewhere the swap is
// two renames.
func exchange(a, b string) error { return errNoExchange }
