-- +goose Up
-- Contradictions block approval: `policy import` and `policy approve` refuse a version that
-- states a different value for the same term than an approved version eligible for the
-- same accounts at the same time, unless it supersedes the other document (--supersedes)
-- or the operator accepts the contradiction with a reason (--accept-contradiction). Each
-- accepted one is kept here, both sides named, for the admin page.
CREATE TABLE accepted_contradictions (
    id          bigserial PRIMARY KEY,
    term        text NOT NULL,  -- the commercial verb and the unit, e.g. "refund (days)"
    a_ref       text NOT NULL,  -- doc_id@version of the version being approved
    a_chunk     text NOT NULL,
    a_values    text[] NOT NULL,
    b_ref       text NOT NULL,  -- doc_id@version of the approved version it contradicts
    b_chunk     text NOT NULL,
    b_values    text[] NOT NULL,
    reason      text NOT NULL CHECK (reason <> ''),
    accepted_by text NOT NULL,
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX accepted_contradictions_at ON accepted_contradictions (at);

-- +goose Down
DROP TABLE accepted_contradictions;
