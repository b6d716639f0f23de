-- +goose Up
-- The reachability check of an indexed scope's graph (store/scopes.go, checkReach) also
-- lists as unreached a chunk whose walk for its own vector returned it but no other chunk
-- nearly as similar as the rest of the scope's chunks find theirs: the walk came down to
-- it through the graph's upper layers, and nothing of its own neighbourhood links to it,
-- so no query near it finds it. reach_fence is the scope's bound for that: the lower
-- outer fence (first quartile less three interquartile ranges) of the similarity of each
-- chunk's nearest other chunk in its own walk, set when the graph is built and applied to
-- the chunks that join it later. Graphs built before this migration have none, and their
-- later chunks are checked for reach alone until the graph is built again.
ALTER TABLE retrieval_scopes ADD COLUMN reach_fence double precision;

-- +goose Down
ALTER TABLE retrieval_scopes DROP COLUMN reach_fence;
