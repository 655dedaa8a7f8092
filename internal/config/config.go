package config

import (
	"errors"
	"io/fs"
	"os"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/readiness"
)

// Config is kb.toml. Relative paths are relative to the current directory.
type Config struct {
	Title     string `toml:"title"`      // site title
	BaseURL   string `toml:"base_url"`   // where the site is published; pages link relatively either way
	Output    string `toml:"output"`     // output folder, replaced atomically on each build
	Matrix    string `toml:"matrix"`     // matrix folder
	Content   string `toml:"content"`    // content folder
	Records   string `toml:"records"`    // host records folder; may be missing
	Templates string `toml:"templates"`  // folder whose *.html override the embedded templates by name
	Static    string `toml:"static"`     // folder whose files override or add to the embedded static files
	StaleDays int    `toml:"stale_days"` // lint warns about claims verified longer ago; 0 disables
	// The records loader's caps, in bytes (0: record.DefaultMaxFile and
	// record.DefaultMaxTotal): one record file, and the records of a build.
	MaxRecordBytes  int64 `toml:"max_record_bytes"`
	MaxRecordsBytes int64 `toml:"max_records_bytes"`
	// Targets are the plans the fleet page judges every host against
	// ([[target]]), as kbgen check records/ does with plan flags.
	Targets []readiness.Target `toml:"target"`
}

// Default is used when there is no kb.toml.
func Default() Config {
	return Config{
		Title:     "rocekb: RoCE adapter compatibility",
		Output:    "public",
		Matrix:    "matrix",
		Content:   "content",
		Records:   "records",
		StaleDays: 365,
	}
}

// Load reads a kb.toml over the defaults. A missing file is not an
// error when required is false.
func Load(path string, required bool) (Config, diag.List) {
	cfg := Default()
	src, err := os.ReadFile(path)
	if err != nil {
		var probs diag.List
		if errors.Is(err, fs.ErrNotExist) && !required {
			return cfg, nil
		}
		probs.Add(path, diag.Pos{}, "read config: %v", err)
		return cfg, probs
	}
	return Parse(path, src)
}

// Parse decodes kb.toml text over the defaults, strictly; name prefixes
// problems.
func Parse(name string, src []byte) (Config, diag.List) {
	cfg := Default()
	_, probs := diag.DecodeTOML(name, src, &cfg)
	return cfg, probs
}
