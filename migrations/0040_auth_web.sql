-- +goose Up
-- API tokens: only a SHA-256 of each token is kept; the token itself is printed once by
-- `supportdraft token create`. A revoked token (and every session exchanged from it) stops
-- working at once.
CREATE TABLE api_tokens (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL,
    role        text NOT NULL CHECK (role IN ('agent', 'reviewer', 'admin', 'helpdesk')),
    hash        bytea NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at  timestamptz
);

-- Signed help-desk webhooks already accepted (method, path and signature), for replay
-- refusal. Rows older than the signature tolerance are deleted as new ones arrive.
CREATE TABLE webhook_deliveries (
    delivery    text PRIMARY KEY, -- "METHOD path v1-signature"
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_at ON webhook_deliveries (at);

-- The policy area a draft is filed under (that of its best evidence), for the admin view's
-- abstention rate per area and week.
ALTER TABLE drafts ADD COLUMN area text NOT NULL DEFAULT '';
CREATE INDEX drafts_created ON drafts (created_at);

-- +goose Down
DROP INDEX drafts_created;
ALTER TABLE drafts DROP COLUMN area;
DROP TABLE webhook_deliveries;
DROP TABLE api_tokens;
