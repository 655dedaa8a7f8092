// Package diagnose runs the host checks on a host record against the
// matrix: one file per check, the helpers they share in helpers.go, and
// the binding of each id of the check registry (internal/checkid) to its
// check in registry.go.
package diagnose
