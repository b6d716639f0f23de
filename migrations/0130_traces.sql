-- +goose Up
-- Each `supportdraft trace` over the store: the term, the account and instant it was judged
-- for, the outcome and what it found; the admin page lists the newest. The term is agent
-- text (it may quote a draft): retention blanks it. A trace belongs to the agent whose
-- corpus it searched (migration 0120's row-level security).
CREATE TABLE traces (
    id                  bigserial PRIMARY KEY,
    term                text NOT NULL,
    plan                text NOT NULL DEFAULT '',
    region              text NOT NULL DEFAULT '',
    locale              text NOT NULL DEFAULT '',
    judged_at           timestamptz NOT NULL,
    outcome             text NOT NULL CHECK (outcome IN ('absent', 'present_not_eligible', 'present_stale',
                                                          'present_contradicted', 'present_eligible')),
    matches             integer NOT NULL,
    eligible_statements integer NOT NULL,
    sent_matches        integer NOT NULL,
    first_ref           text NOT NULL DEFAULT '', -- doc_id@version of the first match, eligible first
    traced_at           timestamptz NOT NULL DEFAULT now(),
    agent_id            text NOT NULL DEFAULT current_setting('supportdraft.agent') REFERENCES agents
);
SELECT agent_isolation('traces');
CREATE INDEX traces_traced_at ON traces (traced_at);

-- +goose Down
DROP TABLE traces;
