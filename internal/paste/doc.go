// Package paste splits what a customer pasted (one or more command outputs,
// with or without shell prompts, in code fences or a mail's quote marks, in
// an issue template's list items, or each line behind its command as
// report-hw prints it, in any order) into
// the outputs it holds and lays them out where a kbcollect capture keeps
// them, so the collector reads a paste as it reads a capture.
package paste
