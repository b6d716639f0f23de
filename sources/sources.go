// Package sources gives the send hook and the agent's edit check what outbound text is
// judged against: every policy chunk eligible now for the account, as the guard reads it.
// That is the whole eligible corpus, not the few chunks a draft cites, and reading it on
// every check would make a send-check's cost grow with the corpus. A Cache reads each
// eligible set once (docs/decisions/004-sources-cache.md).
package sources

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// maxSets bounds the sets a Cache holds. A process sees one set per plan × region in use
// until a version is approved, superseded or expires; when the bound is reached the cache
// forgets every set and starts over, as text/memo does, rather than keep eviction
// order on the path the send hook waits on.
const maxSets = 32

// readTimeout bounds one read of a set's chunks. The read runs apart from the check that
// started it (Read), so it needs a bound of its own: at 5,440 chunks it took under half a
// second.
const readTimeout = 30 * time.Second

// Cache holds the guard's reading of recent eligible sets, keyed by their version IDs.
// Use New; the zero value is not usable.
type Cache struct {
	store *store.Store
	vocab *guard.Vocabulary
	// chunks reads the chunks of a set of versions: store.VersionChunks, or a read a test
	// can hold back.
	chunks func(ctx context.Context, ids []int64) ([]policy.Evidence, error)

	mu   sync.Mutex
	sets map[string]*guard.Sources
	// reading makes the checks that miss the same set at once (the first after an import,
	// on every plan and region) wait for one read of its chunks instead of each doing it.
	reading singleflight.Group
}

// New returns an empty cache over st, read with vocab.
func New(st *store.Store, vocab *guard.Vocabulary) *Cache {
	return &Cache{store: st, vocab: vocab, chunks: st.VersionChunks, sets: map[string]*guard.Sources{}}
}

// Eligible returns every chunk eligible at `at` for plan and region, read by the guard.
func (c *Cache) Eligible(ctx context.Context, at time.Time, plan, region string) (*guard.Sources, error) {
	versions, err := c.store.EligibleVersions(ctx, at, plan, region)
	if err != nil {
		return nil, err
	}
	return c.Read(ctx, versions)
}

// Read returns the chunks of versions, read by the guard. Callers ask the database which
// versions are eligible on every check (Eligible, store.StartSendCheck), so a version
// approved, superseded or expired since changes the answer at once; the chunks are read
// only for a set not seen before, since a stored version's chunks never change.
//
// The checks that miss one set at once share one read, and that read is not the first
// caller's: it runs without that caller's cancellation, under readTimeout. A caller that
// gives up (its client hung up, its budget ran out) returns at once with its own error,
// and the others still get the set; bound to the first caller's context, its cancellation
// had failed all of them, whose sends then went out unchecked.
func (c *Cache) Read(ctx context.Context, versions []store.EligibleVersion) (*guard.Sources, error) {
	ids := make([]int64, len(versions))
	for i, v := range versions {
		ids[i] = v.ID
	}
	key := fmt.Sprint(ids)
	c.mu.Lock()
	read, ok := c.sets[key]
	c.mu.Unlock()
	if ok {
		return read, nil
	}
	done := c.reading.DoChan(key, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readTimeout)
		defer cancel()
		chunks, err := c.chunks(ctx, ids)
		if err != nil {
			return nil, err
		}
		read := c.vocab.Read(chunks)
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.sets) >= maxSets {
			clear(c.sets)
		}
		c.sets[key] = read
		return read, nil
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-done:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*guard.Sources), nil
	}
}
