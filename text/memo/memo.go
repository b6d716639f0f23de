// Package memo remembers the answers of pure functions of text. The drafting steps read
// the same policy chunks and the same ticket again and again (retrieval's re-rank, the
// drafter, the judge, the guard, the scorer, and every other draft that cites the same
// chunk), and tokenising and stemming that text was a large share of a draft's CPU.
package memo

import "sync"

// Cache holds answers by their input text, up to a budget of input bytes (an answer
// read from a text grows with it, so the texts' size bounds the memory held). When the
// budget is spent it forgets everything and starts over: a corpus's working set refills
// it in a few drafts, and there is no eviction bookkeeping on the hot path. A text over a
// sixteenth of the budget is computed and never kept. Answers are shared between
// callers, so they must be treated as read-only. Use New; the zero value is not usable.
type Cache[V any] struct {
	mu     sync.Mutex
	budget int
	used   int
	values map[string]V
}

// New returns an empty cache that keeps answers for at most budget bytes of input text.
func New[V any](budget int) *Cache[V] {
	return &Cache[V]{budget: budget, values: make(map[string]V)}
}

// Get returns the answer for text, computing it with compute (outside the lock) the
// first time. Two callers that miss at once both compute it; the answers are equal.
func (c *Cache[V]) Get(text string, compute func() V) V {
	if len(text) > c.budget/16 {
		return compute()
	}
	c.mu.Lock()
	v, ok := c.values[text]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.values[text]; ok {
		return v
	}
	if c.used+len(text) > c.budget {
		clear(c.values)
		c.used = 0
	}
	c.values[text] = v
	c.used += len(text)
	return v
}
