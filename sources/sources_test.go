package sources_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/sources"
	"github.com/supportdraft/supportdraft/store"
)

// TestEligibleFollowsApprovals reads the eligible chunks through one Cache while a policy
// changes under it: the same set is read once and shared, and a new version that
// supersedes the old one is what the very next check is judged against, with nothing of
// the old one left.
func TestEligibleFollowsApprovals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, vocab, cache := newCache(t)
	importVersion(t, s, 1, "2025-01-01T00:00:00Z", "Unused seat credits expire after 9 months.")

	first, err := cache.Eligible(ctx, time.Now(), "pro", "eu")
	if err != nil {
		t.Fatal(err)
	}
	again, err := cache.Eligible(ctx, time.Now(), "pro", "eu")
	if err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Error("the same eligible set was read twice")
	}
	requireKept(t, vocab, first, "Unused seat credits expire after 9 months.", true)
	requireKept(t, vocab, first, "Unused seat credits expire after 11 months.", false)

	importVersion(t, s, 2, "2026-06-01T00:00:00Z", "Unused seat credits expire after 11 months.")
	after, err := cache.Eligible(ctx, time.Now(), "pro", "eu")
	if err != nil {
		t.Fatal(err)
	}
	if after.Len() != first.Len() {
		t.Errorf("%d chunks eligible after version 2 replaced version 1, want %d as before", after.Len(), first.Len())
	}
	requireKept(t, vocab, after, "Unused seat credits expire after 11 months.", true)
	requireKept(t, vocab, after, "Unused seat credits expire after 9 months.", false)

	// The old set is still the answer at an instant when the old version was in force.
	before, err := cache.Eligible(ctx, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), "pro", "eu")
	if err != nil {
		t.Fatal(err)
	}
	requireKept(t, vocab, before, "Unused seat credits expire after 9 months.", true)
}

// newCache opens a fresh store and a Cache over it that reads sources with the default
// vocabulary, and returns that vocabulary too: sentences are checked against what the
// cache returns with the vocabulary that read it.
func newCache(t *testing.T) (*store.Store, *guard.Vocabulary, *sources.Cache) {
	t.Helper()
	s := testenv.Store(t)
	vocab, err := guard.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return s, vocab, sources.New(s, vocab)
}

func requireKept(t *testing.T, vocab *guard.Vocabulary, read *guard.Sources, sentence string, want bool) {
	t.Helper()
	res := vocab.Check(guard.Input{Reply: sentence, Read: read, Mode: guard.ModeAnySource})
	if got := res.Struck == 0; got != want {
		t.Errorf("%q kept %v, want %v (%s)", sentence, got, want, res.Sentences[0].Reason)
	}
}

// importVersion imports version n of billing/seat-credits, in force from `from`.
func importVersion(t *testing.T, s *store.Store, n int, from, body string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "billing", "seat-credits", fmt.Sprintf("v%d.md", n))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "---\ndoc_id: billing/seat-credits\nversion: " + fmt.Sprint(n) + "\nstatus: approved\nsource: wiki\n" +
		"title: Seat credits\narea: seats\neffective_from: " + from + "\nplans: [\"*\"]\nregions: [\"*\"]\nowner: billing-ops\n---\n" +
		"## Expiry\n\n" + body + "\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	versions, err := policy.ParseDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(context.Background(), versions, testenv.Embedder); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentMissesReadOnce sends checks of one account at once to a cache that has not
// read its set yet, as the first send-checks after an import do: one read serves them all.
func TestConcurrentMissesReadOnce(t *testing.T) {
	t.Parallel()
	s, _, cache := newCache(t)
	versions, err := s.EligibleVersions(context.Background(), time.Now(), "pro", "eu")
	if err != nil {
		t.Fatal(err)
	}
	const checks = 8
	got := make([]*guard.Sources, checks)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start // all miss together: reading the chunks takes a round trip, starting takes far less
			read, err := cache.Read(context.Background(), versions)
			if err != nil {
				t.Error(err)
			}
			got[i] = read
		}()
	}
	close(start)
	wg.Wait()
	for i, read := range got {
		if read != got[0] {
			t.Errorf("check %d got a read of its own: the set was read more than once", i)
		}
	}
}
