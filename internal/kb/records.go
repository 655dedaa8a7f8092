package kb

import (
	"errors"
	"io/fs"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/record"
)

// Records are the host record files of a knowledge base, listed but not
// read, so a build can read, use and drop one record at a time: 50,000
// records never sit in memory together. Each skips a record that does not
// decode or whose fields lack their formats, and returns its problems.
type Records = record.Set

// listRecords lists the records of a file or a folder, as record.Load
// reads them. A missing path holds no records: whether that is an error
// is the command's to say (kbgen build --records <missing> exits 2).
func listRecords(name string, lim record.Limits) (*Records, diag.List) {
	set, probs, err := record.ListLimits(name, lim)
	if errors.Is(err, fs.ErrNotExist) {
		return &Records{}, nil
	}
	if err != nil {
		probs.Add(name, diag.Pos{}, "read records: %v", err)
		return nil, probs
	}
	return set, probs
}
