package snapshot

import (
	"io/fs"
	"strings"
	"time"

	"github.com/rocekb/rocekb/internal/source"
)

// sosCommand finds a command's output in a copied tree.
func (s *Snapshot) sosCommand(cmdline string) Result {
	s.sosOnce.Do(s.indexSos)
	name := source.SosName(cmdline)
	want := source.Cmd(cmdline).Path()
	if fi, err := fs.Stat(s.fsys, want); err == nil && !fi.IsDir() {
		return s.File(want)
	}
	if p, ok := s.sosIndex[name]; ok {
		return s.File(p)
	}
	for _, alt := range source.Also(cmdline) {
		if rest, ok := strings.CutPrefix(alt, "sos_commands/*/"); ok {
			if p, ok := s.sosIndex[rest]; ok {
				return s.File(p)
			}
			continue
		}
		if fi, err := fs.Stat(s.fsys, alt); err == nil && !fi.IsDir() {
			return s.File(alt)
		}
	}
	return Result{Path: want, Status: StatusAbsent, Reason: "not captured"}
}

// indexSos maps each file name under sos_commands/<plugin>/ to its path,
// plugins in name order, so a command collected by an unexpected plugin
// (or an older sos) is still found.
func (s *Snapshot) indexSos() {
	s.sosIndex = map[string]string{}
	plugins, _ := fs.ReadDir(s.fsys, "sos_commands")
	for _, p := range plugins {
		if !p.IsDir() {
			continue
		}
		files, _ := fs.ReadDir(s.fsys, "sos_commands/"+p.Name())
		for _, f := range files {
			if _, seen := s.sosIndex[f.Name()]; !seen && !f.IsDir() {
				s.sosIndex[f.Name()] = "sos_commands/" + p.Name() + "/" + f.Name()
			}
		}
	}
}

// replay returns what a capture recorded for a command.
func (s *Snapshot) replay(e ManifestCommand) Result {
	r := Result{Path: e.Path, Status: e.Status, Reason: e.Reason, Truncated: e.Truncated}
	if e.Status == StatusAbsent {
		return r
	}
	f := s.File(e.Path)
	switch {
	case f.OK():
		r.Data = f.Data
	case e.Status == StatusOK:
		r.Status, r.Reason = f.Status, "capture lists the output but it is missing: "+f.Reason
	}
	return r
}

// dateLayouts are date(1)'s default output formats under LC_ALL=C.
var dateLayouts = []string{time.UnixDate, "Mon Jan _2 15:04:05 MST 2006", "Mon 02 Jan 2006 03:04:05 PM MST", "Mon Jan _2 03:04:05 PM MST 2006"}

// sosDate reads when an sosreport was taken from sos's date plugin output
// ("date --utc" first: its zone is known; "date" only when it says UTC).
func sosDate(s *Snapshot) (time.Time, bool) {
	for _, p := range []string{"sos_commands/date/date_--utc", "sos_commands/general/date_--utc", "date", "sos_commands/date/date", "sos_commands/general/date"} {
		res := s.File(p)
		if !res.OK() {
			continue
		}
		line := strings.TrimSpace(string(res.Data))
		if !strings.Contains(line, "UTC") && !strings.Contains(line, "GMT") {
			continue
		}
		for _, layout := range dateLayouts {
			if t, err := time.Parse(layout, line); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}
