package kb

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"time"

	"github.com/rocekb/rocekb/internal/cachefile"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/matrix"
)

// matrixCacheMagic starts the file; its number changes with the layout.
const matrixCacheMagic = "rocekb matrix 1\n"

// cachedMatrix is what the file holds after its key: the loaded matrix's
// exported fields (gob) and its lint.
type cachedMatrix struct {
	Matrix *matrix.Matrix
	Probs  diag.List
}

// loadMatrixCached is loadMatrix through the file at file
// (Options.MatrixCache); code names the program.
func loadMatrixCached(cfg config.Config, now time.Time, skipGrid bool, file, code string) (*matrix.Matrix, diag.List, bool) {
	srcs, key, err := matrixKey(cfg, now, skipGrid, code)
	if err != nil {
		return loadMatrix(cfg, now, nil, skipGrid, nil) // it says what is wrong
	}
	if b, err := os.ReadFile(file); err == nil {
		if c, ok := decodeMatrix(b, key); ok {
			c.Matrix.Reopen(srcs)
			return c.Matrix, c.Probs, true
		}
	}
	m, probs, ok := loadMatrix(cfg, now, nil, skipGrid, nil)
	if ok && probs.Errors() == 0 {
		b := bytes.NewBufferString(matrixCacheMagic)
		b.Write(key[:])
		if gob.NewEncoder(b).Encode(cachedMatrix{m, probs}) == nil {
			cachefile.Write(file, b.Bytes())
		}
	}
	return m, probs, ok
}

// decodeMatrix reads a cache file made with key.
func decodeMatrix(b []byte, key [sha256.Size]byte) (cachedMatrix, bool) {
	var c cachedMatrix
	head := append([]byte(matrixCacheMagic), key[:]...)
	if !bytes.HasPrefix(b, head) || gob.NewDecoder(bytes.NewReader(b[len(head):])).Decode(&c) != nil || c.Matrix == nil {
		return cachedMatrix{}, false
	}
	return c, true
}

// matrixKey reads the matrix files matrix.Load reads (*.toml in
// cfg.Matrix), by the names Load gives them, and digests what a loaded
// matrix and its lint are made from: those names and bytes, the lint's
// options (the day, StaleDays, the grid lint) and the program.
func matrixKey(cfg config.Config, now time.Time, skipGrid bool, code string) (map[string][]byte, [sha256.Size]byte, error) {
	var key [sha256.Size]byte
	fsys := os.DirFS(cfg.Matrix)
	files, err := fs.Glob(fsys, "*.toml")
	if err != nil || len(files) == 0 {
		return nil, key, errors.New("no matrix files")
	}
	sort.Strings(files)
	h := sha256.New()
	put := func(b []byte) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))])
		h.Write(b)
	}
	str := func(s string) { put([]byte(s)) }
	str(matrixCacheMagic)
	str(code)
	str(fmt.Sprint(now.Format(time.DateOnly), " stale days ", cfg.StaleDays, " grid lint skipped ", skipGrid))
	srcs := make(map[string][]byte, len(files))
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, key, err
		}
		name := path.Join(cfg.Matrix, f)
		srcs[name] = b
		str(name)
		put(b)
	}
	h.Sum(key[:0])
	return srcs, key, nil
}
