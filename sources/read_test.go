package sources

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// TestACallerGivingUpLeavesTheReadToTheOthers cancels the check that started a set's read
// while the read is under way: that check returns its own error at once, and the read
// goes on for the checks that came after it, which get the set from that one read instead
// of an error or a read of their own.
func TestACallerGivingUpLeavesTheReadToTheOthers(t *testing.T) {
	vocab, err := guard.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	var reads atomic.Int32
	started, release := make(chan struct{}, 8), make(chan struct{})
	c := &Cache{vocab: vocab, sets: map[string]*guard.Sources{}}
	c.chunks = func(ctx context.Context, ids []int64) ([]policy.Evidence, error) {
		reads.Add(1)
		started <- struct{}{}
		select {
		case <-release:
			return []policy.Evidence{{ChunkID: "billing/refunds@1#s1", DocID: "billing/refunds", Version: 1,
				Text: "Annual plans are refundable within 30 days of purchase."}}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	versions := []store.EligibleVersion{{ID: 7, DocID: "billing/refunds", Version: 1}}

	first, giveUp := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() {
		_, err := c.Read(first, versions)
		firstErr <- err
	}()
	<-started
	giveUp()
	select {
	case err := <-firstErr:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the check that gave up got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second): // a guard against a hang, not a timing: it returns at once
		t.Fatal("the check that gave up still waits on the read it started")
	}

	second := make(chan error, 1)
	go func() {
		read, err := c.Read(context.Background(), versions)
		if err == nil && read.Len() != 1 {
			t.Errorf("the set read has %d chunks, want 1", read.Len())
		}
		second <- err
	}()
	close(release)
	if err := <-second; err != nil {
		t.Fatalf("a check after the first gave up got %v, want the set", err)
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("the set was read %d times, want once: the first caller's cancellation ended its read", n)
	}
}
