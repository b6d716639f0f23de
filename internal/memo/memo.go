// Package memo remembers the answers of pure functions of text. The drafting steps read
// the same policy chunks and the same ticket again and again (retrieval's re-rank, the
// drafter, the judge, the guard, the scorer, and every other draft that cites the same
// chunk), and tokenising and stemming that text was most of a draft's CPU in the worker.
package memo

import "sync"

// Cache holds up to Max answers by their input key. When it is full it forgets them all
// and starts over: a policy corpus's working set refills it in a few drafts, and there is
// no eviction bookkeeping on the hot path. The zero value is not usable; use New. Values
// are shared between callers, so they must be treated as read-only.
type Cache[V any] struct {
	mu     sync.Mutex
	max    int
	values map[string]V
}

// New returns an empty cache that keeps at most max answers.
func New[V any](max int) *Cache[V] {
	return &Cache[V]{max: max, values: make(map[string]V)}
}

// Get returns the answer for key, computing it with compute (outside the lock) the first
// time. Two callers that miss at once both compute it; both answers are equal.
func (c *Cache[V]) Get(key string, compute func() V) V {
	c.mu.Lock()
	v, ok := c.values[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	c.mu.Lock()
	if len(c.values) >= c.max {
		clear(c.values)
	}
	c.values[key] = v
	c.mu.Unlock()
	return v
}

// Len is how many answers the cache holds.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.values)
}
