// Package parallel runs independent pieces of work on every CPU.
package parallel
