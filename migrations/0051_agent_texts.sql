-- +goose Up
-- The words an agent typed: edits and the texts given to the send hook. Workflow updates
-- and activities carry a row's ID and SHA-256 (hex, of the text as typed), never the text,
-- so Temporal history holds no customer-facing words. checks is the guard's verdict on an
-- edit, sentence by sentence (it quotes the text, so it lives here too). Retention may set
-- text and checks to NULL; the ID and the hash stay.
CREATE TABLE agent_texts (
    id         bigserial PRIMARY KEY,
    ticket_id  text NOT NULL,
    kind       text NOT NULL CHECK (kind IN ('edit', 'send_check')),
    text       text,
    sha256     text NOT NULL,
    checks     jsonb,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_texts_created_at ON agent_texts (created_at);

-- The send-check verdict names the text it was given (NULL when Postgres was down and the
-- text could not be kept).
ALTER TABLE send_checks ADD COLUMN text_id bigint REFERENCES agent_texts (id) ON DELETE SET NULL;

-- +goose Down
ALTER TABLE send_checks DROP COLUMN text_id;
DROP TABLE agent_texts;
