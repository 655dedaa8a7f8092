// Package checkid is the one registry of host-check ids: the id of each
// check the engine runs and the question it answers. Trees (node check)
// and FAQ pages (checks) name these ids; content lint and the engine
// (internal/diagnose) both read them from here.
package checkid
