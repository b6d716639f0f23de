-- +goose Up
-- The lexical arm finds the chunks that hold a query's rarer terms through a GIN index of
-- their lexemes (migration 0070). Under row-level security (0120) Postgres uses an index
-- for a condition only if its operator is leakproof or the policy's condition comes first,
-- and array overlap (&&) is not leakproof: on chunks the lookup became a scan of every
-- chunk. The lexemes move to chunk_terms, a lookup table without row-level security that
-- holds no text: each chunk's ID, agent and lexemes. The lexical arm asks it for the
-- chunks of the connection's one agent (retrieval acts for one) and joins every chunk it
-- finds to chunks, under the policy, before anything is read or returned.
CREATE TABLE chunk_terms (
    chunk_id text PRIMARY KEY REFERENCES chunks (id) ON DELETE CASCADE,
    agent_id text NOT NULL REFERENCES agents,
    terms    text[] NOT NULL
);
INSERT INTO chunk_terms (chunk_id, agent_id, terms) SELECT id, agent_id, tsvector_to_array(lex) FROM chunks;
CREATE INDEX chunk_terms_terms ON chunk_terms USING gin (terms);
DROP INDEX chunks_lexemes;

-- Filled on every insert of chunks, whichever path writes them. A chunk's lexemes never
-- change after its insert (chunks_lex).
-- +goose StatementBegin
CREATE FUNCTION chunk_terms_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO chunk_terms (chunk_id, agent_id, terms) SELECT id, agent_id, tsvector_to_array(lex) FROM added;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER chunks_terms AFTER INSERT ON chunks REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION chunk_terms_added();

-- +goose Down
DROP TRIGGER chunks_terms ON chunks;
DROP FUNCTION chunk_terms_added();
CREATE INDEX chunks_lexemes ON chunks USING gin (tsvector_to_array(lex));
DROP TABLE chunk_terms;
