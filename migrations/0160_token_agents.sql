-- +goose Up
-- Each token acts for the agents it names; a request made with it (or with a session
-- opened from it) sees only their drafts, messages and verdicts. Tokens from before
-- agents existed act for the default agent, the billing agent of the first deployment.
ALTER TABLE api_tokens ADD COLUMN agents text[] NOT NULL DEFAULT '{billing}'
    CHECK (cardinality(agents) > 0);

-- +goose Down
ALTER TABLE api_tokens DROP COLUMN agents;
