-- +goose Up
-- Agents (issue 38): one deployment serves several agents, each with its own corpus,
-- drafts, messages and verdicts. Every row that belongs to one agent carries its ID, and
-- row-level security shows a connection only the rows of the agents named in its setting
-- supportdraft.agent (a comma-separated list), which store.Open sets from the context
-- before every query. A query that forgets to filter by agent still sees one agent.
CREATE TABLE agents (
    id         text PRIMARY KEY CHECK (id ~ '^[a-z][a-z0-9-]{0,39}$'),
    name       text NOT NULL CHECK (name <> ''),
    addresses  text[] NOT NULL DEFAULT '{}',
    settings   jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
-- The agent every database created before agents existed migrates to (agent.Default).
INSERT INTO agents (id, name) VALUES ('billing', 'Billing');

-- agent_isolation enables and forces row-level security on tbl, whose agent_id column
-- names the row's agent, with one policy: a row is seen and written only by a connection
-- whose supportdraft.agent lists that agent. The list is read in a subquery, which
-- Postgres evaluates once per statement rather than once per row. FORCE applies it to the
-- table's owner too,
-- which is the role migrations, tests and a deployment without SUPPORTDRAFT_APP_ROLE
-- connect as. An unset or empty setting sees nothing. Migrations call it for every table
-- that holds one agent's data.
-- +goose StatementBegin
CREATE FUNCTION agent_isolation(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
    EXECUTE format('CREATE POLICY agent_isolation ON %s
        USING (agent_id = ANY ((SELECT string_to_array(current_setting(''supportdraft.agent'', true), '',''))::text[]))
        WITH CHECK (agent_id = ANY ((SELECT string_to_array(current_setting(''supportdraft.agent'', true), '',''))::text[]))', tbl);
END $$;
-- +goose StatementEnd

-- The tables that hold one agent's data get agent_id. The column is added with the
-- constant default 'billing', which fills every existing row without rewriting the table,
-- and then defaults to the connection's agent, so no INSERT has to name it (an insert on a
-- connection acting for several agents fails: a row belongs to exactly one).
--
--   policy:     documents, versions, chunks, approvals, accepted_contradictions;
--   retrieval:  retrieval_scopes and scope_names (the scopes are per agent, so each
--               partition of scope_chunks and its side list holds one agent's chunks),
--               lexemes and lexicon (term statistics per agent: one agent's corpus does
--               not change another's ranking);
--   drafting:   ticket_revisions, drafts, build_failures, rejections, agent_texts,
--               send_checks, sent_replies, review_queue, review_notes;
--   intake:     inbox_messages, inbox_revisions, funnel_events.
--
-- Deployment-wide, without agent_id: goose_db_version and agents; api_tokens and
-- sign_in_codes (a request's token is looked up before anyone knows its agent; tokens
-- name their agents themselves); webhook_deliveries, slack_requests and imap_messages
-- (replay guards and mailbox claims, checked before a message is routed to an agent);
-- kill_switch (the operator's stop for the whole deployment); scope_chunks and scope_side
-- (per scope, so per agent by construction, reached only through a scope ID the
-- row-secured retrieval_scopes gave, holding no text, and every row retrieval returns is
-- joined to chunks).
--
-- Ticket and document IDs stay unique per deployment: a chunk's ID is built from its
-- document's (doc_id@version#anchor) and keys the scope partitions, and a help desk numbers
-- the tickets of all its teams in one sequence. An ID another agent holds is refused.
-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'versions', 'chunks', 'approvals', 'accepted_contradictions',
        'retrieval_scopes', 'scope_names', 'lexemes', 'lexicon',
        'ticket_revisions', 'drafts', 'build_failures', 'rejections', 'agent_texts', 'send_checks',
        'sent_replies', 'review_queue', 'review_notes',
        'inbox_messages', 'inbox_revisions', 'funnel_events'] LOOP
        EXECUTE format('ALTER TABLE %I ADD COLUMN agent_id text NOT NULL DEFAULT ''billing'' REFERENCES agents', t);
        EXECUTE format('ALTER TABLE %I ALTER COLUMN agent_id SET DEFAULT current_setting(''supportdraft.agent'')', t);
        PERFORM agent_isolation(t::regclass);
    END LOOP;
END $$;
-- +goose StatementEnd

-- A version belongs to its document's agent and a chunk to its version's: retrieval's
-- scopes join chunks to versions, and neither may reach across agents.
ALTER TABLE documents ADD UNIQUE (doc_id, agent_id);
ALTER TABLE versions ADD UNIQUE (id, agent_id),
    ADD FOREIGN KEY (doc_id, agent_id) REFERENCES documents (doc_id, agent_id);
ALTER TABLE chunks ADD FOREIGN KEY (version_id, agent_id) REFERENCES versions (id, agent_id) ON DELETE CASCADE;

-- Scopes, their names and term statistics are per agent.
ALTER TABLE retrieval_scopes DROP CONSTRAINT retrieval_scopes_plan_region_embedder_key,
    ADD UNIQUE (agent_id, plan, region, embedder);
ALTER TABLE scope_names DROP CONSTRAINT scope_names_pkey, ADD PRIMARY KEY (agent_id, kind, name);
ALTER TABLE lexemes DROP CONSTRAINT lexemes_pkey, ADD PRIMARY KEY (agent_id, lexeme);
ALTER TABLE lexicon DROP COLUMN one, ADD PRIMARY KEY (agent_id);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION scope_names_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO scope_names (agent_id, kind, name)
    SELECT agent_id, 'plan', p FROM added, unnest(plans) p WHERE p <> '*'
    UNION
    SELECT agent_id, 'region', r FROM added, unnest(regions) r WHERE r <> '*'
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE OR REPLACE VIEW scope_members AS
SELECT s.id AS scope_id, c.id AS chunk_id, v.id AS version_id, v.eligible_window, c.embedding
FROM chunks c
JOIN versions v ON v.id = c.version_id
JOIN retrieval_scopes s ON s.embedder = c.embedder AND s.agent_id = c.agent_id
WHERE v.status <> 'draft'
  AND v.plans && ARRAY['*', s.plan]
  AND v.regions && ARRAY['*', s.region];

-- +goose Down
-- Back to one agent: refused (a duplicate key) when another agent's lexemes or scopes exist,
-- since dropping agent_id would merge their rows.
CREATE OR REPLACE VIEW scope_members AS
SELECT s.id AS scope_id, c.id AS chunk_id, v.id AS version_id, v.eligible_window, c.embedding
FROM chunks c
JOIN versions v ON v.id = c.version_id
JOIN retrieval_scopes s ON s.embedder = c.embedder
WHERE v.status <> 'draft'
  AND v.plans && ARRAY['*', s.plan]
  AND v.regions && ARRAY['*', s.region];
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION scope_names_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO scope_names
    SELECT 'plan', p FROM added, unnest(plans) p WHERE p <> '*'
    UNION
    SELECT 'region', r FROM added, unnest(regions) r WHERE r <> '*'
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd
ALTER TABLE lexicon DROP CONSTRAINT lexicon_pkey, ADD COLUMN one boolean NOT NULL DEFAULT true CHECK (one), ADD PRIMARY KEY (one);
ALTER TABLE lexemes DROP CONSTRAINT lexemes_pkey, ADD PRIMARY KEY (lexeme);
ALTER TABLE scope_names DROP CONSTRAINT scope_names_pkey, ADD PRIMARY KEY (kind, name);
ALTER TABLE retrieval_scopes DROP CONSTRAINT retrieval_scopes_agent_id_plan_region_embedder_key,
    ADD UNIQUE (plan, region, embedder);
-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['chunks', 'versions', 'documents', 'approvals', 'accepted_contradictions',
        'retrieval_scopes', 'scope_names', 'lexemes', 'lexicon',
        'ticket_revisions', 'drafts', 'build_failures', 'rejections', 'agent_texts', 'send_checks',
        'sent_replies', 'review_queue', 'review_notes',
        'inbox_messages', 'inbox_revisions', 'funnel_events'] LOOP
        EXECUTE format('DROP POLICY agent_isolation ON %I', t);
        EXECUTE format('ALTER TABLE %I NO FORCE ROW LEVEL SECURITY, DISABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I DROP COLUMN agent_id CASCADE', t);
    END LOOP;
END $$;
-- +goose StatementEnd
DROP FUNCTION agent_isolation(regclass);
DROP TABLE agents;
