-- +goose Up
-- How many builds each scope's current graph took. store.EnsureScopes builds a graph
-- again when its reachability check finds more than store.MaxUnreachedShare of the scope's
-- chunks lost, up to store.GraphBuilds builds (store/scopes.go, buildGraph). 0 while the
-- scope has no graph; graphs built before this migration took one.
ALTER TABLE retrieval_scopes ADD COLUMN graph_builds integer NOT NULL DEFAULT 0;
UPDATE retrieval_scopes SET graph_builds = 1 WHERE indexed;

-- +goose Down
ALTER TABLE retrieval_scopes DROP COLUMN graph_builds;
