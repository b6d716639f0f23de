package store

import (
	"context"
	"fmt"
	"time"
)

// CreateSignInCode stores the hash of a one-time sign-in code for a token, valid for ttl.
// Codes past their expiry are deleted on the way: they can never be used again.
func (s *Store) CreateSignInCode(ctx context.Context, tokenID int64, hash []byte, ttl time.Duration) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM sign_in_codes WHERE expires_at < now()`); err != nil {
		return fmt.Errorf("forget expired sign-in codes: %w", err)
	}
	_, err := s.db.Exec(ctx, `INSERT INTO sign_in_codes (hash, token_id, expires_at)
		VALUES ($1, $2, now() + make_interval(secs => $3))`, hash, tokenID, ttl.Seconds())
	if err != nil {
		return fmt.Errorf("create sign-in code for token %d: %w", tokenID, err)
	}
	return nil
}

// UseSignInCode consumes the sign-in code with this hash and returns its token, or
// ErrNotFound when the code is unknown, already used, expired or its token revoked. One
// statement marks it used and reads it, so two browsers racing with one link cannot both
// get a session.
func (s *Store) UseSignInCode(ctx context.Context, hash []byte) (Token, error) {
	rows, err := s.db.Query(ctx, `UPDATE sign_in_codes c SET used_at = now()
		FROM api_tokens t
		WHERE c.hash = $1 AND c.used_at IS NULL AND c.expires_at > now()
		  AND t.id = c.token_id AND t.revoked_at IS NULL
		RETURNING t.id, t.name, t.role, t.created_at, t.last_used_at, t.revoked_at, t.agents`, hash)
	if err != nil {
		return Token{}, fmt.Errorf("use sign-in code: %w", err)
	}
	return oneToken(rows, "sign-in code")
}
