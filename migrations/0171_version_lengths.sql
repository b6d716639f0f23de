-- +goose Up
-- The document arm normalises each ranked version's BM25 by the version's whole length, the
-- sum of its chunks' lex_len (migration 0070). Summing it on every query read every chunk of
-- every pooled version; version_lengths keeps the sum, one row per version, added to by a
-- trigger on every insert of chunks, whichever path writes them. A chunk's lex_len never
-- changes after its insert (chunks_lex), and a chunk leaves only with its version.
CREATE TABLE version_lengths (
    version_id bigint PRIMARY KEY,
    agent_id   text NOT NULL DEFAULT current_setting('supportdraft.agent') REFERENCES agents,
    tokens     bigint NOT NULL,
    FOREIGN KEY (version_id, agent_id) REFERENCES versions (id, agent_id) ON DELETE CASCADE
);
INSERT INTO version_lengths (version_id, agent_id, tokens)
SELECT version_id, agent_id, sum(lex_len) FROM chunks GROUP BY 1, 2;
SELECT agent_isolation('version_lengths');

-- +goose StatementBegin
CREATE FUNCTION version_lengths_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO version_lengths (version_id, agent_id, tokens)
    SELECT version_id, agent_id, sum(lex_len) FROM added GROUP BY 1, 2 ORDER BY 1
    ON CONFLICT (version_id) DO UPDATE SET tokens = version_lengths.tokens + excluded.tokens;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER chunks_version_lengths AFTER INSERT ON chunks REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION version_lengths_added();

-- +goose Down
DROP TRIGGER chunks_version_lengths ON chunks;
DROP FUNCTION version_lengths_added();
DROP TABLE version_lengths;
