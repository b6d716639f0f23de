package memo

import (
	"strings"
	"testing"
)

func TestGetComputesOncePerText(t *testing.T) {
	c := New[int](1 << 10)
	calls := 0
	compute := func() int { calls++; return 42 }
	for range 3 {
		if got := c.Get("a", compute); got != 42 {
			t.Fatalf("Get = %d, want 42", got)
		}
	}
	if calls != 1 {
		t.Fatalf("compute ran %d times for one text, want 1", calls)
	}
	c.Get("b", func() int { return 7 })
	if got := c.Get("b", compute); got != 7 {
		t.Fatalf("Get(b) = %d, want the first answer 7", got)
	}
}

func TestSpentBudgetStartsOver(t *testing.T) {
	c := New[string](64) // texts of up to 4 bytes are kept
	for _, text := range []string{"aaaa", "bbbb"} {
		c.Get(text, func() string { return strings.ToUpper(text) })
	}
	for i := range 14 { // 14 more 4-byte texts: 64 bytes in all
		c.Get(strings.Repeat(string(rune('c'+i)), 4), func() string { return "" })
	}
	if n := c.Len(); n != 16 {
		t.Fatalf("Len = %d with exactly the budget used, want 16", n)
	}
	c.Get("zzzz", func() string { return "Z" })
	if n := c.Len(); n != 1 {
		t.Fatalf("Len = %d after the budget was spent, want 1 (emptied, then zzzz)", n)
	}
	if got := c.Get("aaaa", func() string { return "again" }); got != "again" {
		t.Fatalf("Get(aaaa) = %q after the cache started over, want it recomputed", got)
	}
}

func TestLongTextIsNeverKept(t *testing.T) {
	c := New[int](64)
	long := strings.Repeat("x", 5) // over 64/16 bytes
	calls := 0
	for range 2 {
		c.Get(long, func() int { calls++; return 1 })
	}
	if calls != 2 || c.Len() != 0 {
		t.Fatalf("a text over a sixteenth of the budget: computed %d times, %d kept; want 2 and 0", calls, c.Len())
	}
}
