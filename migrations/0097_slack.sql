-- +goose Up
-- Slack interactivity requests accepted in the last few minutes, by signature: Slack's
-- signatures stay valid for five minutes, and one seen before in that window is a replay.
-- Kept in Postgres so every API replica refuses it.
CREATE TABLE slack_requests (
    signature text PRIMARY KEY,
    seen_at   timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE slack_requests;
