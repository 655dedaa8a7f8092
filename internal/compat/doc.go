// Package compat is the compatibility engine: it runs the registered checks
// on host records against the matrix, gives verdicts for planned
// configurations, summarises fleets, and walks troubleshooting trees.
package compat
