-- +goose Up
-- One-time sign-in codes: a sign-in link carries one of these instead of an API token, so
-- a link copied from a browser history, a log or a screen share cannot be replayed. Only
-- the code's SHA-256 is kept; the exchange marks it used in the same statement that reads
-- it, and a code dies with its token (revoked, or deleted).
CREATE TABLE sign_in_codes (
    hash       bytea PRIMARY KEY,
    token_id   bigint NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX sign_in_codes_expires_at ON sign_in_codes (expires_at);

-- +goose Down
DROP TABLE sign_in_codes;
