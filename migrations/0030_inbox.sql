-- +goose Up
-- The inbox: inbound mail as the help desk delivered it (the only copy of its text:
-- workflow histories and funnel events carry IDs and decisions, never bodies), which
-- ticket revision each surviving message became, every funnel step's decision, and the
-- kill switch, read live by intake and by rebuilds.
CREATE TABLE inbox_messages (
    message_id  text PRIMARY KEY,
    thread_id   text NOT NULL,
    received_at timestamptz NOT NULL,
    message     jsonb NOT NULL,
    stored_at   timestamptz NOT NULL DEFAULT now()
);

-- A message that joined its thread's ticket, and as which revision: appending it again
-- (a retried activity) finds it here instead of adding a second revision.
CREATE TABLE inbox_revisions (
    message_id text PRIMARY KEY,
    ticket_id  text NOT NULL,
    revision   integer NOT NULL,
    FOREIGN KEY (ticket_id, revision) REFERENCES ticket_revisions (ticket_id, revision)
);

CREATE TABLE funnel_events (
    id         bigserial PRIMARY KEY,
    message_id text NOT NULL,
    thread_id  text NOT NULL DEFAULT '',
    stage      text NOT NULL CHECK (stage IN ('duplicate', 'kill_switch', 'first_response', 'filters', 'recipients', 'triage', 'draft')),
    outcome    text NOT NULL CHECK (outcome IN ('pass', 'skip', 'review', 'failed_open', 'started', 'failed')),
    reason     text NOT NULL,
    bucket     text NOT NULL DEFAULT '',
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX funnel_events_message ON funnel_events (message_id);
CREATE INDEX funnel_events_at ON funnel_events (at);

-- One row: whether drafting is halted. Read on every message and every rebuild, so a
-- change takes effect at once without restarting anything.
CREATE TABLE kill_switch (
    id         boolean PRIMARY KEY DEFAULT true CHECK (id),
    halted     boolean NOT NULL,
    changed_by text NOT NULL DEFAULT '',
    changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO kill_switch (halted) VALUES (false);

-- +goose Down
DROP TABLE kill_switch;
DROP TABLE funnel_events;
DROP TABLE inbox_revisions;
DROP TABLE inbox_messages;
