-- +goose Up
-- Scope graphs index half-precision vectors (embedding::halfvec, store/scopes.go): a walk
-- reads half the bytes per node. A graph built before indexes full-precision vectors,
-- which the walk no longer orders by, so the planner would scan its scope exactly on every
-- query. Each is dropped with its side list, and its scope is scanned exactly (as a scope
-- under store.IndexFrom is: correct, slower) until store.EnsureScopes builds the new graph,
-- which the worker's next start or the next import does. (0066, not 0065: 0065 was the
-- reachability fence, since reverted, and a database that applied it has 65 recorded.)
-- +goose StatementBegin
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT id FROM retrieval_scopes WHERE indexed LOOP
        EXECUTE format('DROP INDEX IF EXISTS %I', 'scope_chunks_' || r.id || '_hnsw');
    END LOOP;
END $$;
-- +goose StatementEnd
DELETE FROM scope_side;
UPDATE retrieval_scopes SET indexed = false WHERE indexed;

-- +goose Down
-- The earlier code builds full-precision graphs: the half-precision ones go the same way.
-- +goose StatementBegin
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT id FROM retrieval_scopes WHERE indexed LOOP
        EXECUTE format('DROP INDEX IF EXISTS %I', 'scope_chunks_' || r.id || '_hnsw');
    END LOOP;
END $$;
-- +goose StatementEnd
DELETE FROM scope_side;
UPDATE retrieval_scopes SET indexed = false WHERE indexed;
