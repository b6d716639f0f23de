package auth

import (
	"errors"
	"sync"
	"time"

	"github.com/supportdraft/supportdraft/store"
)

// KnownTokenGrace is how long after the store last confirmed a token the authorizer still
// accepts it while the store cannot answer at all (Postgres down or unreachable).
const KnownTokenGrace = 15 * time.Minute

// knownTokens remembers the tokens the store last confirmed, so that a database outage
// does not refuse every caller: the send hook above all must still get its "unchecked"
// answer, which the API spools until the database is back. Memory is read only when the
// store fails; any answer from the store wins (a revoked or unknown token is refused, and
// forgotten, as soon as it can say so), and nobody can revoke a token while it is down.
// Only confirmed tokens are kept, so unknown guesses cannot grow it.
type knownTokens struct {
	mu    sync.Mutex
	byKey map[string]knownToken
}

type knownToken struct {
	token store.Token
	at    time.Time
}

// lookup asks the store (fn) for the token under key, remembering or forgetting it by the
// answer; if the store fails, a token it confirmed within KnownTokenGrace of now answers.
func (k *knownTokens) lookup(key string, now time.Time, fn func() (store.Token, error)) (store.Token, bool, error) {
	t, err := fn()
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byKey == nil {
		k.byKey = map[string]knownToken{}
	}
	switch {
	case err == nil:
		k.byKey[key] = knownToken{token: t, at: now}
		return t, false, nil
	case errors.Is(err, store.ErrNotFound):
		delete(k.byKey, key)
		return t, false, err
	}
	if known, ok := k.byKey[key]; ok && now.Sub(known.at) <= KnownTokenGrace {
		return known.token, true, nil
	}
	return t, false, err
}
