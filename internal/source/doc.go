// Package source provides the table of what kbcollect reads from a host:
// one Tool row per tool or file, naming the command lines a live run may
// execute, where an sosreport and a capture keep their output, and the
// record source ids (typed ID constants) the collector and the engine
// compare exactly. It imports nothing else from rocekb, so snapshot,
// collect and the engine can all import it.
package source
