package memo

import "testing"

func TestGetComputesOncePerKey(t *testing.T) {
	c := New[int](10)
	calls := 0
	compute := func() int { calls++; return 42 }
	for range 3 {
		if got := c.Get("a", compute); got != 42 {
			t.Fatalf("Get = %d, want 42", got)
		}
	}
	if calls != 1 {
		t.Fatalf("compute ran %d times for one key, want 1", calls)
	}
	c.Get("b", func() int { return 7 })
	if got := c.Get("b", compute); got != 7 {
		t.Fatalf("Get(b) = %d, want the first answer 7", got)
	}
}

func TestFullCacheStartsOver(t *testing.T) {
	c := New[string](2)
	c.Get("a", func() string { return "A" })
	c.Get("b", func() string { return "B" })
	c.Get("c", func() string { return "C" })
	if n := c.Len(); n != 1 {
		t.Fatalf("Len = %d after a third key in a cache of 2, want 1 (emptied, then c)", n)
	}
	if got := c.Get("a", func() string { return "again" }); got != "again" {
		t.Fatalf("Get(a) = %q after the cache started over, want it recomputed", got)
	}
}
