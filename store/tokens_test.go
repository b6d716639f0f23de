package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

// The lookup every API request makes: it finds an active token by hash, marks it used
// (so `token list` shows it alive) without moving the mark on every call, and refuses a
// revoked or unknown hash.
func TestActiveTokenByHashMarksUseAndRefusesRevoked(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	hash := []byte("hash-of-a-test-token-" + t.Name())
	created, err := s.CreateToken(ctx, "sidebar", "agent", nil, hash)
	require.NoError(t, err)
	require.Nil(t, created.LastUsedAt)

	first, err := s.ActiveTokenByHash(ctx, hash)
	require.NoError(t, err)
	assert.Equal(t, created.ID, first.ID)
	assert.Equal(t, "sidebar", first.Name)
	assert.Equal(t, "agent", first.Role)
	require.NotNil(t, first.LastUsedAt, "the first use is marked and returned")

	again, err := s.ActiveTokenByHash(ctx, hash)
	require.NoError(t, err)
	require.NotNil(t, again.LastUsedAt)
	assert.True(t, first.LastUsedAt.Equal(*again.LastUsedAt))
	listed, err := s.ListTokens(ctx)
	require.NoError(t, err)
	for _, l := range listed {
		if l.ID == created.ID {
			require.NotNil(t, l.LastUsedAt, "the mark is stored, not only returned")
		}
	}

	require.NoError(t, s.RevokeToken(ctx, created.ID))
	_, err = s.ActiveTokenByHash(ctx, hash)
	assert.True(t, errors.Is(err, store.ErrNotFound), "revoked: %v", err)
	_, err = s.ActiveTokenByHash(ctx, []byte("no-such-hash"))
	assert.True(t, errors.Is(err, store.ErrNotFound), "unknown: %v", err)
}

// A sign-in code is consumed by one statement: of many exchanges racing with one code,
// exactly one gets the token.
func TestUseSignInCodeOnceUnderRace(t *testing.T) {
	t.Parallel()
	s, _ := testdb.New(t) // a schema of its own: the racers need connections of their own
	ctx := context.Background()
	tok, err := s.CreateToken(ctx, "sidebar", "agent", nil, []byte("token-hash-"+t.Name()))
	require.NoError(t, err)
	code := []byte("code-hash-" + t.Name())
	require.NoError(t, s.CreateSignInCode(ctx, tok.ID, code, time.Minute))

	const racers = 8
	wins := make(chan int64, racers)
	var wg sync.WaitGroup
	for range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := s.UseSignInCode(ctx, code); err == nil {
				wins <- got.ID
			} else {
				assert.ErrorIs(t, err, store.ErrNotFound)
			}
		}()
	}
	wg.Wait()
	close(wins)
	var got []int64
	for id := range wins {
		got = append(got, id)
	}
	assert.Equal(t, []int64{tok.ID}, got)
}
