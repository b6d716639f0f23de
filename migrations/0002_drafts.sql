-- +goose Up
-- Ticket revisions as the help desk sent them (the only copy of the ticket text: workflow
-- histories carry IDs, never bodies), the drafts built for them with every claim, verdict
-- and strike, the rejection log, and every send-check verdict.
CREATE TABLE ticket_revisions (
    ticket_id   text NOT NULL,
    revision    integer NOT NULL CHECK (revision >= 1),
    updated_at  timestamptz NOT NULL,
    account_id  text NOT NULL DEFAULT '',
    plan        text NOT NULL,
    region      text NOT NULL,
    locale      text NOT NULL DEFAULT 'en',
    channel     text NOT NULL DEFAULT '',
    subject     text NOT NULL DEFAULT '',
    messages    jsonb NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ticket_id, revision)
);

CREATE TABLE drafts (
    ticket_id    text NOT NULL,
    iteration    integer NOT NULL CHECK (iteration >= 1),
    revision     integer NOT NULL,
    status       text NOT NULL CHECK (status IN ('ready', 'abstained', 'stale', 'discarded', 'closed')),
    eligible_at  timestamptz NOT NULL, -- the instant eligibility was judged at
    plan         text NOT NULL,
    region       text NOT NULL,
    locale       text NOT NULL,
    reply        text NOT NULL,        -- composed text shown to the agent
    model_reply  text NOT NULL,        -- what the drafter wrote, before any strike
    abstained    boolean NOT NULL,
    note         text NOT NULL DEFAULT '',
    claims       jsonb NOT NULL,       -- claims with span checks, verdicts and reasoning
    sentences    jsonb NOT NULL,       -- the guard's per-sentence decisions
    bound        jsonb NOT NULL,       -- [{doc_id, version}] the draft relies on
    evidence     jsonb NOT NULL,       -- [{chunk_id, score}] retrieved, eligible
    scores       jsonb NOT NULL,       -- faithfulness, coverage, fit
    unsupported  integer NOT NULL,
    confidence   double precision NOT NULL,
    edited_text  text,
    edited_at    timestamptz,
    stale_reasons jsonb NOT NULL DEFAULT '[]',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ticket_id, iteration)
);

-- The rejection log: what the corpus could not back. No ticket body, only the struck
-- sentence of the model's draft and why.
CREATE TABLE rejections (
    id         bigserial PRIMARY KEY,
    ticket_id  text NOT NULL,
    iteration  integer NOT NULL,
    sentence   text NOT NULL,
    reason     text NOT NULL,
    area       text NOT NULL DEFAULT '',
    at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (ticket_id, iteration, sentence)
);
CREATE INDEX rejections_at ON rejections (at);

CREATE TABLE send_checks (
    id         bigserial PRIMARY KEY,
    ticket_id  text NOT NULL,
    iteration  integer NOT NULL,
    verdict    text NOT NULL CHECK (verdict IN ('ok', 'stale', 'unchecked', 'blocked')),
    reasons    jsonb NOT NULL DEFAULT '[]',
    at         timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE send_checks;
DROP TABLE rejections;
DROP TABLE drafts;
DROP TABLE ticket_revisions;
