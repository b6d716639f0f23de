-- +goose Up
-- The document arm normalises a version's length by the mean length of the agent's
-- versions. Counting the versions on every query cost a scan of the versions table; the
-- count is kept beside the other term statistics instead, updated with them by
-- store.Import (countTerms) and store.RecountTerms.
ALTER TABLE lexicon ADD COLUMN versions bigint NOT NULL DEFAULT 0;
UPDATE lexicon l SET versions = (SELECT count(DISTINCT c.version_id) FROM chunks c WHERE c.agent_id = l.agent_id);

-- +goose Down
ALTER TABLE lexicon DROP COLUMN versions;
