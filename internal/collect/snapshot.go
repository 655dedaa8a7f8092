package collect

import (
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// The snapshot layer has its own kinds, statuses and problems, so that it
// does not depend on the record schema; these map them to the record's.

// recordKind maps a snapshot kind to the record's source_kind.
func recordKind(kind string) string {
	switch kind {
	case snapshot.KindLive:
		return record.KindLive
	case snapshot.KindSosreport:
		return record.KindSosreport
	case snapshot.KindCapture:
		return record.KindCapture
	case snapshot.KindRoot:
		return record.KindRoot
	case snapshot.KindSupportconfig:
		return record.KindSupportconfig
	case snapshot.KindSysinfoSnapshot:
		return record.KindSysinfoSnapshot
	}
	return kind
}

// recordStatus maps a snapshot Result's status to a record source status.
func recordStatus(status string) string {
	switch status {
	case snapshot.StatusOK:
		return record.StatusOK
	case snapshot.StatusAbsent:
		return record.StatusAbsent
	case snapshot.StatusFailed:
		return record.StatusFailed
	}
	return status
}

// snapshotProblems maps what was wrong with the snapshot itself (members that
// tried to escape, symlink loops, files over the cap) to record problems,
// in the snapshot's order.
func snapshotProblems(s *snapshot.Snapshot) []record.Problem {
	var out []record.Problem
	for _, p := range s.Problems() {
		out = append(out, record.Problem{Source: p.Source, Msg: p.Msg})
	}
	return out
}

// commandSources lists every command a live run executed or a capture
// recorded as a record source, so that commands the collector did not ask
// for are listed too.
func commandSources(s *snapshot.Snapshot) []record.Source {
	var out []record.Source
	for _, ci := range s.Commands() {
		r := ci.Result
		out = append(out, record.Source{ID: "cmd/" + ci.Cmdline, Path: r.Path, Status: recordStatus(r.Status), Reason: r.Reason})
	}
	return out
}
