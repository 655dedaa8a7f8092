// Package collect provides the collector: it turns a snapshot into a host
// record, recording every source it consulted as ok, absent or failed.
package collect
