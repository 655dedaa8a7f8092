package cli

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// CacheEnv names the environment variable that sets the folder kbgen keeps
// work between runs in (the search tables, the loaded matrix); "off" keeps
// none. Unset, it is rocekb under the user's cache folder (os.UserCacheDir).
const CacheEnv = "ROCEKB_CACHE_DIR"

// CacheDir is the folder of CacheEnv, or "" when none is set or known.
func CacheDir() string {
	if d, ok := os.LookupEnv(CacheEnv); ok {
		if d == "off" {
			return ""
		}
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "rocekb")
}

// ProgramID names the running program's code, for keys of work it
// cached: the Go build ID of its executable (which the go command derives
// from every input of the link, so any change of the code changes it), or
// where the executable has none the digest of its bytes; "" when neither
// can be read, and then nothing is cached.
var ProgramID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			// The note: name size, description size, type, the name
			// "Go\0\0", then the build ID.
			if b, err := s.Data(); err == nil && len(b) >= 16 {
				if n := int(f.ByteOrder.Uint32(b[4:8])); n > 0 && n <= len(b)-16 {
					return "go build id " + string(b[16:16+n])
				}
			}
		}
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "sha256 " + hex.EncodeToString(h.Sum(nil))
})
