package auth

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/store"
)

// While the store is down a token it confirmed recently still passes; an unknown one, one
// confirmed too long ago, or one the store has since said is revoked does not.
func TestKnownTokensRideOutAStoreOutageOnly(t *testing.T) {
	var k knownTokens
	now := time.Unix(1_800_000_000, 0)
	agent := store.Token{ID: 7, Name: "hook", Role: string(Agent)}
	up := func() (store.Token, error) { return agent, nil }
	down := func() (store.Token, error) { return store.Token{}, errors.New("connection refused") }
	revoked := func() (store.Token, error) { return store.Token{}, store.ErrNotFound }

	_, _, err := k.lookup("a", now, down)
	require.Error(t, err, "never confirmed: refused while the store is down")

	got, remembered, err := k.lookup("a", now, up)
	require.NoError(t, err)
	assert.False(t, remembered)
	assert.Equal(t, agent, got)

	got, remembered, err = k.lookup("a", now.Add(KnownTokenGrace), down)
	require.NoError(t, err)
	assert.True(t, remembered)
	assert.Equal(t, agent, got)

	_, _, err = k.lookup("a", now.Add(KnownTokenGrace+time.Second), down)
	assert.Error(t, err, "confirmed too long ago")

	_, _, err = k.lookup("a", now, up)
	require.NoError(t, err)
	_, _, err = k.lookup("a", now, revoked)
	assert.ErrorIs(t, err, store.ErrNotFound)
	_, _, err = k.lookup("a", now, down)
	assert.Error(t, err, "revoked: forgotten, not remembered")
}
