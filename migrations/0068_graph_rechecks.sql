-- +goose Up
-- How many chunks have joined each scope's graph since its reachability was last checked
-- whole (when it was built, or since). Each chunk that joins is checked itself, but its
-- insert prunes its new neighbours' full lists, and VACUUM's repair of a deleted chunk's
-- neighbours links them anew, so an older chunk can lose its last link unseen.
-- store.EnsureScopes checks the whole graph again once this passes store.RecheckShare of
-- the scope (store/scopes.go, checkJoined). Graphs built before this migration start at 0:
-- what joined them before is not known.
ALTER TABLE retrieval_scopes ADD COLUMN joined_since_check integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE retrieval_scopes DROP COLUMN joined_since_check;
