package search

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxQueryBytes bounds a query: longer ones are refused, so one request
// cannot make the analyzer and bleve walk megabytes. A pasted dmesg line or
// two fits.
const MaxQueryBytes = 512

// Handler answers GET /api/search?q=…[&kind=…][&vendor=…][&lang=…][&limit=…][&offset=…]
// with the JSON of Results. It is safe for concurrent requests. Answers to
// repeated queries come from the index's cache (see SetCacheSize).
func Handler(ix *Index) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			httpError(w, http.StatusMethodNotAllowed, "use GET")
			return
		}
		v := r.URL.Query()
		q := Query{Text: v.Get("q"), Kind: v.Get("kind"), Vendor: v.Get("vendor"), Lang: v.Get("lang"), Limit: 10}
		if len(q.Text) > MaxQueryBytes {
			httpError(w, http.StatusRequestEntityTooLarge, "query longer than "+strconv.Itoa(MaxQueryBytes)+" bytes")
			return
		}
		if !utf8.ValidString(q.Text) {
			httpError(w, http.StatusBadRequest, "query is not UTF-8")
			return
		}
		if s := v.Get("limit"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 || n > 100 {
				httpError(w, http.StatusBadRequest, "limit must be 1 to 100")
				return
			}
			q.Limit = n
		}
		if s := v.Get("offset"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > 100000 {
				httpError(w, http.StatusBadRequest, "offset must be 0 to 100000")
				return
			}
			q.Offset = n
		}
		key := strings.Join([]string{q.Text, q.Kind, q.Vendor, q.Lang, strconv.Itoa(q.Limit), strconv.Itoa(q.Offset)}, "\x00")
		body, err := ix.cache.do(key, func() ([]byte, error) {
			// Not cancelled with the request: others may wait for it.
			res, err := ix.Search(context.WithoutCancel(r.Context()), q)
			if err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			err = enc.Encode(res)
			return buf.Bytes(), err
		})
		if err != nil {
			httpError(w, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
