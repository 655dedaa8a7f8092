package search

import (
	"container/list"
	"sync"
)

// DefaultCacheSize is how many /api/search answers an index keeps unless
// SetCacheSize says otherwise.
const DefaultCacheSize = 1024

// answerCache keeps the encoded answers of the most recent distinct
// queries (least recently used out first). It is an addition: a miss costs
// a full search, and the benchmarks report both.
type answerCache struct {
	mu   sync.Mutex
	size int
	ll   *list.List // of *cacheEntry, most recent first
	at   map[string]*list.Element
	// flight holds the searches under way: a burst of one query waits
	// for a single search instead of running it once per request.
	flight map[string]*flight
}

type flight struct {
	done chan struct{}
	body []byte
	err  error
}

type cacheEntry struct {
	key  string
	body []byte
}

func newAnswerCache(size int) *answerCache {
	return &answerCache{size: size, ll: list.New(), at: map[string]*list.Element{}, flight: map[string]*flight{}}
}

func (c *answerCache) get(key string) ([]byte, bool) {
	if c == nil || c.size <= 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.at[key]
	if !ok {
		return nil, false
	}
	c.ll.MoveToFront(e)
	return e.Value.(*cacheEntry).body, true
}

func (c *answerCache) put(key string, body []byte) {
	if c == nil || c.size <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.at[key]; ok {
		c.ll.MoveToFront(e)
		return
	}
	c.at[key] = c.ll.PushFront(&cacheEntry{key, body})
	for c.ll.Len() > c.size {
		last := c.ll.Back()
		c.ll.Remove(last)
		delete(c.at, last.Value.(*cacheEntry).key)
	}
}

// SetCacheSize sets how many answers Handler keeps for repeated queries;
// 0 turns the cache off. Call it before the index serves requests.
func (ix *Index) SetCacheSize(n int) { ix.cache = newAnswerCache(n) }

// do returns the cached answer for key, or runs search once for all the
// requests that miss it at the same time and caches what it returns.
func (c *answerCache) do(key string, search func() ([]byte, error)) ([]byte, error) {
	if c == nil || c.size <= 0 {
		return search()
	}
	if body, ok := c.get(key); ok {
		return body, nil
	}
	c.mu.Lock()
	if f, ok := c.flight[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.body, f.err
	}
	f := &flight{done: make(chan struct{})}
	c.flight[key] = f
	c.mu.Unlock()
	f.body, f.err = search()
	if f.err == nil {
		c.put(key, f.body)
	}
	c.mu.Lock()
	delete(c.flight, key)
	c.mu.Unlock()
	close(f.done)
	return f.body, f.err
}
