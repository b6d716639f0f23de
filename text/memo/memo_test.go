package memo

import (
	"strings"
	"testing"
)

// counted is a compute function that counts its calls.
type counted struct{ calls int }

func (c *counted) fn(answer string) func() string {
	return func() string { c.calls++; return answer }
}

func TestGetComputesOncePerText(t *testing.T) {
	c := New[string](1 << 10)
	var a, b counted
	for range 3 {
		if got := c.Get("a", a.fn("A")); got != "A" {
			t.Fatalf("Get(a) = %q, want A", got)
		}
	}
	c.Get("b", b.fn("B"))
	if got := c.Get("b", b.fn("other")); got != "B" {
		t.Fatalf("Get(b) = %q, want the first answer B", got)
	}
	if a.calls != 1 || b.calls != 1 {
		t.Fatalf("computed a %d and b %d times, want once each", a.calls, b.calls)
	}
}

func TestSpentBudgetStartsOver(t *testing.T) {
	c := New[string](64) // 16 texts of 4 bytes fill it
	var first, refill counted
	texts := make([]string, 16)
	for i := range texts {
		texts[i] = strings.Repeat(string(rune('a'+i)), 4)
		c.Get(texts[i], first.fn(texts[i]))
	}
	for _, text := range texts {
		c.Get(text, refill.fn(text))
	}
	if refill.calls != 0 {
		t.Fatalf("%d of 16 texts recomputed with exactly the budget used, want 0", refill.calls)
	}
	c.Get("zzzz", first.fn("zzzz")) // over the budget: everything is forgotten
	c.Get("zzzz", refill.fn("zzzz"))
	c.Get(texts[0], refill.fn(texts[0]))
	if refill.calls != 1 {
		t.Fatalf("after the budget was spent: %d recomputations, want 1 (the forgotten %q, not zzzz)", refill.calls, texts[0])
	}
}

func TestLongTextIsNeverKept(t *testing.T) {
	c := New[string](64)
	long := strings.Repeat("x", 5) // over 64/16 bytes
	var n counted
	c.Get(long, n.fn("X"))
	c.Get(long, n.fn("X"))
	if n.calls != 2 {
		t.Fatalf("a text over a sixteenth of the budget was computed %d times in two calls, want 2", n.calls)
	}
}
