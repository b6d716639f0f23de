package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/agent"
)

// Token is one API token as stored: never the token itself, only its hash.
type Token struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Role       string     `json:"role"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	// Agents are the agents the token acts for: every request made with it sees only theirs.
	Agents []string `json:"agents"`
}

const tokenColumns = `id, name, role, created_at, last_used_at, revoked_at, agents`

// CreateToken stores a token's hash with its name, role and agents; none named means the
// default agent.
func (s *Store) CreateToken(ctx context.Context, name, role string, agents []string, hash []byte) (Token, error) {
	if len(agents) == 0 {
		agents = []string{agent.Default}
	}
	rows, err := s.db.Query(ctx, `INSERT INTO api_tokens (name, role, hash, agents) VALUES ($1, $2, $3, $4) RETURNING `+tokenColumns, name, role, hash, agents)
	if err != nil {
		return Token{}, fmt.Errorf("create token %q: %w", name, err)
	}
	return pgx.CollectExactlyOneRow(rows, pgx.RowToStructByPos[Token])
}

// ActiveTokenByHash finds the unrevoked token with this hash, or ErrNotFound. It marks the
// token used, at most once a minute, so `token list` shows which tokens are alive. Every
// API request asks it, so it is one statement: the update touches the row only when the
// mark is a minute old, and the token comes back either way.
func (s *Store) ActiveTokenByHash(ctx context.Context, hash []byte) (Token, error) {
	rows, err := s.db.Query(ctx, `WITH t AS (
			SELECT `+tokenColumns+` FROM api_tokens WHERE hash = $1 AND revoked_at IS NULL),
		marked AS (
			UPDATE api_tokens a SET last_used_at = now() FROM t
			WHERE a.id = t.id AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute')
			RETURNING a.last_used_at)
		SELECT t.id, t.name, t.role, t.created_at, coalesce((SELECT last_used_at FROM marked), t.last_used_at), t.revoked_at, t.agents
		FROM t`, hash)
	if err != nil {
		return Token{}, fmt.Errorf("look up token: %w", err)
	}
	return oneToken(rows, "token")
}

// ActiveToken finds the unrevoked token with this ID, or ErrNotFound: a session lives only
// as long as the token it was exchanged from.
func (s *Store) ActiveToken(ctx context.Context, id int64) (Token, error) {
	rows, err := s.db.Query(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE id = $1 AND revoked_at IS NULL`, id)
	if err != nil {
		return Token{}, fmt.Errorf("look up token %d: %w", id, err)
	}
	return oneToken(rows, fmt.Sprintf("token %d", id))
}

// oneToken reads the one token a statement returns; none is ErrNotFound, named as what,
// so every way of finding a token refuses an unknown or revoked one alike.
func oneToken(rows pgx.Rows, what string) (Token, error) {
	t, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByPos[Token])
	if errors.Is(err, pgx.ErrNoRows) {
		return Token{}, fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return t, err
}

// ListTokens returns every token, revoked ones included, oldest first.
func (s *Store) ListTokens(ctx context.Context) ([]Token, error) {
	rows, err := s.db.Query(ctx, `SELECT `+tokenColumns+` FROM api_tokens ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Token])
}

// TokenNames lists the distinct names of the unrevoked tokens with one of roles, sorted:
// the people the review page can assign a review to.
func (s *Store) TokenNames(ctx context.Context, roles ...string) ([]string, error) {
	rows, err := s.db.Query(ctx, `SELECT DISTINCT name FROM api_tokens WHERE revoked_at IS NULL AND role = ANY($1) ORDER BY name`, roles)
	if err != nil {
		return nil, fmt.Errorf("list token names: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// RevokeToken revokes the token with this ID; revoking twice is not an error.
func (s *Store) RevokeToken(ctx context.Context, id int64) error {
	tag, err := s.db.Exec(ctx, `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("revoke token %d: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("token %d: %w", id, ErrNotFound)
	}
	return nil
}

// RecordDelivery remembers a webhook delivery (the hash of what its signature covered:
// timestamp, method, path and body) and reports whether it was new; one seen before is a
// replay. Deliveries older than keep are
// forgotten: their timestamps are outside the tolerance, so they are refused as stale.
func (s *Store) RecordDelivery(ctx context.Context, delivery string, keep time.Duration) (bool, error) {
	if _, err := s.db.Exec(ctx, `DELETE FROM webhook_deliveries WHERE at < now() - make_interval(secs => $1)`, keep.Seconds()); err != nil {
		return false, fmt.Errorf("forget old webhook deliveries: %w", err)
	}
	tag, err := s.db.Exec(ctx, `INSERT INTO webhook_deliveries (delivery) VALUES ($1) ON CONFLICT DO NOTHING`, delivery)
	if err != nil {
		return false, fmt.Errorf("record webhook delivery: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}
