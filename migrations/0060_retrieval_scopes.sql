-- +goose Up
-- Eligibility-partitioned retrieval. A scope is one (plan, region) pair of one embedder;
-- its partition of scope_chunks holds exactly the non-draft chunks that an account of that
-- plan and region may ever be shown, so a query on it filters only on time. plan or region
-- '*' stands for every value no version names: an account with such a plan matches only
-- versions tagged '*'. Locale is not a scope key: it is a ranking bonus, never a filter.
-- store.EnsureScopes creates the partitions (one per scope, with an HNSW index once the
-- scope is large enough); the triggers below keep every partition equal to its definition
-- as chunks and versions change, so a scope is never stale.
CREATE TABLE retrieval_scopes (
    id       serial PRIMARY KEY,
    plan     text NOT NULL,
    region   text NOT NULL,
    embedder text NOT NULL,
    dims     integer NOT NULL CHECK (dims > 0),
    indexed  boolean NOT NULL DEFAULT false,
    UNIQUE (plan, region, embedder)
);

CREATE TABLE scope_chunks (
    scope_id        integer NOT NULL REFERENCES retrieval_scopes (id) ON DELETE CASCADE,
    chunk_id        text NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    eligible_window tstzrange NOT NULL,
    embedding       vector NOT NULL,
    PRIMARY KEY (chunk_id, scope_id)
) PARTITION BY LIST (scope_id);

-- Every plan and region any version names (drafts included), kept by a trigger on
-- versions. A query maps an account's plan or region that is not listed here to '*', and
-- one that is listed to its own scope, which falls back to the unpartitioned query until
-- EnsureScopes has built it: a newly named plan is never searched in the wrong scope.
CREATE TABLE scope_names (
    kind text NOT NULL CHECK (kind IN ('plan', 'region')),
    name text NOT NULL,
    PRIMARY KEY (kind, name)
);
INSERT INTO scope_names
SELECT DISTINCT 'plan', p FROM versions, unnest(plans) p WHERE p <> '*'
UNION
SELECT DISTINCT 'region', r FROM versions, unnest(regions) r WHERE r <> '*';

-- +goose StatementBegin
CREATE FUNCTION scope_names_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO scope_names
    SELECT 'plan', p FROM added, unnest(plans) p WHERE p <> '*'
    UNION
    SELECT 'region', r FROM added, unnest(regions) r WHERE r <> '*'
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- scope_members is the membership rule, written once: which chunk belongs to which scope.
-- EnsureScopes fills a new partition from it; the triggers apply it to the rows a
-- statement touched.
CREATE VIEW scope_members AS
SELECT s.id AS scope_id, c.id AS chunk_id, v.id AS version_id, v.eligible_window, c.embedding
FROM chunks c
JOIN versions v ON v.id = c.version_id
JOIN retrieval_scopes s ON s.embedder = c.embedder
WHERE v.status <> 'draft'
  AND v.plans && ARRAY['*', s.plan]
  AND v.regions && ARRAY['*', s.region];

-- +goose StatementBegin
CREATE FUNCTION scope_chunks_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO scope_chunks (scope_id, chunk_id, eligible_window, embedding)
    SELECT m.scope_id, m.chunk_id, m.eligible_window, m.embedding
    FROM scope_members m JOIN added a ON a.id = m.chunk_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- A re-embedded chunk, or the chunks of a changed version (superseded, window closed), are
-- rewritten in every scope: removed, then inserted again where they still belong.
-- +goose StatementBegin
CREATE FUNCTION scope_chunks_reembedded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM scope_chunks sc USING changed c WHERE sc.chunk_id = c.id;
    INSERT INTO scope_chunks (scope_id, chunk_id, eligible_window, embedding)
    SELECT m.scope_id, m.chunk_id, m.eligible_window, m.embedding
    FROM scope_members m JOIN changed c ON c.id = m.chunk_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION scope_versions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM scope_chunks sc USING chunks c, changed v WHERE c.version_id = v.id AND sc.chunk_id = c.id;
    INSERT INTO scope_chunks (scope_id, chunk_id, eligible_window, embedding)
    SELECT m.scope_id, m.chunk_id, m.eligible_window, m.embedding
    FROM scope_members m JOIN changed v ON v.id = m.version_id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER versions_name_scopes AFTER INSERT ON versions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scope_names_added();
CREATE TRIGGER versions_rename_scopes AFTER UPDATE ON versions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scope_names_added();
CREATE TRIGGER chunks_into_scopes AFTER INSERT ON chunks
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scope_chunks_added();
CREATE TRIGGER chunks_rescoped AFTER UPDATE ON chunks
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scope_chunks_reembedded();
CREATE TRIGGER versions_rescoped AFTER UPDATE ON versions
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION scope_versions_changed();

-- +goose Down
DROP TRIGGER versions_rescoped ON versions;
DROP TRIGGER chunks_rescoped ON chunks;
DROP TRIGGER chunks_into_scopes ON chunks;
DROP TRIGGER versions_rename_scopes ON versions;
DROP TRIGGER versions_name_scopes ON versions;
DROP FUNCTION scope_versions_changed();
DROP FUNCTION scope_chunks_reembedded();
DROP FUNCTION scope_chunks_added();
DROP VIEW scope_members;
DROP FUNCTION scope_names_added();
DROP TABLE scope_names;
DROP TABLE scope_chunks;
DROP TABLE retrieval_scopes;
