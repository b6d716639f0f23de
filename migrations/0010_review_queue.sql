-- +goose Up
-- The review queue: one row per ticket, for the current iteration of its draft. The draft
-- workflow writes it (the timer and every decision live in the workflow); GET
-- /v1/review/queue reads it in one query. Rows stay after they leave the queue, with the
-- state they left in.
CREATE TABLE review_queue (
    ticket_id      text PRIMARY KEY,
    iteration      integer NOT NULL,
    state          text NOT NULL CHECK (state IN ('waiting', 'approved', 'handed_off', 'pulled', 'killed', 'sent', 'closed')),
    bucket         text NOT NULL DEFAULT '',
    confidence     double precision NOT NULL,
    low_confidence boolean NOT NULL,
    forced_review  text NOT NULL DEFAULT '', -- why intake forced review; '' if nothing did
    queued_at      timestamptz NOT NULL,
    review_until   timestamptz NOT NULL,     -- end of the pull-back/kill window
    decided_by     text NOT NULL DEFAULT '',
    decided_at     timestamptz,
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_queue_open ON review_queue (queued_at) WHERE state IN ('waiting', 'approved');

-- What the help desk reported sending: a hash of the text, never the text.
CREATE TABLE sent_replies (
    id           bigserial PRIMARY KEY,
    ticket_id    text NOT NULL,
    iteration    integer NOT NULL,
    text_sha256  text NOT NULL,
    edited       boolean NOT NULL, -- the sent text differs from the draft's reply
    verdict      text NOT NULL,    -- the send-check verdict when it was reported
    sent_at      timestamptz NOT NULL,
    agent        text NOT NULL DEFAULT '',
    recorded_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sent_replies_ticket ON sent_replies (ticket_id);

-- A draft's workflow now also ends sent or killed.
ALTER TABLE drafts DROP CONSTRAINT drafts_status_check;
ALTER TABLE drafts ADD CONSTRAINT drafts_status_check
    CHECK (status IN ('ready', 'abstained', 'stale', 'discarded', 'closed', 'sent', 'killed'));

-- +goose Down
ALTER TABLE drafts DROP CONSTRAINT drafts_status_check;
ALTER TABLE drafts ADD CONSTRAINT drafts_status_check
    CHECK (status IN ('ready', 'abstained', 'stale', 'discarded', 'closed'));
DROP TABLE sent_replies;
DROP TABLE review_queue;
