-- +goose Up
-- The exact side list of each indexed scope: the chunks its HNSW graph walk may not find,
-- which every query of the scope also scores exactly, and the witnesses that audit each
-- walk. HNSW is approximate: a chunk whose in-links were all pruned while the graph was
-- built is found by no walk, and a walk can settle among chunks of the wrong topic.
-- kind is
--   'unchecked': added to an indexed scope since its last reachability check;
--   'unreached': a search for the chunk's own vector did not return it;
--   'witness':   a reachable chunk of a fixed sample. A walk that misses a witness better
--                than its own last candidate is provably wrong, and the query is redone
--                as an exact scan of the scope.
-- store.EnsureScopes fills and checks it (store/scopes.go). A row carries its chunk's
-- window and vector, so a query reads its scope's list in one index range: a partition's
-- row is never updated, only deleted (which deletes this one) and inserted again (which
-- adds it again, unchecked).
CREATE TABLE scope_side (
    scope_id        integer NOT NULL,
    chunk_id        text NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('unchecked', 'unreached', 'witness')),
    eligible_window tstzrange NOT NULL,
    embedding       vector NOT NULL,
    PRIMARY KEY (scope_id, chunk_id),
    FOREIGN KEY (chunk_id, scope_id) REFERENCES scope_chunks (chunk_id, scope_id) ON DELETE CASCADE
);

-- A chunk that reaches an indexed scope after its graph was built (an import, a version
-- superseded or re-embedded) is unchecked until EnsureScopes checks it: until then every
-- query scores it exactly, so it is never missed.
-- +goose StatementBegin
CREATE FUNCTION scope_side_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO scope_side (scope_id, chunk_id, kind, eligible_window, embedding)
    SELECT a.scope_id, a.chunk_id, 'unchecked', a.eligible_window, a.embedding
    FROM added a JOIN retrieval_scopes s ON s.id = a.scope_id
    WHERE s.indexed;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER scope_chunks_unchecked AFTER INSERT ON scope_chunks
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scope_side_added();

-- Graphs built before this migration were never checked.
INSERT INTO scope_side (scope_id, chunk_id, kind, eligible_window, embedding)
SELECT sc.scope_id, sc.chunk_id, 'unchecked', sc.eligible_window, sc.embedding
FROM scope_chunks sc JOIN retrieval_scopes s ON s.id = sc.scope_id
WHERE s.indexed;

-- +goose Down
DROP TRIGGER scope_chunks_unchecked ON scope_chunks;
DROP FUNCTION scope_side_added();
DROP TABLE scope_side;
