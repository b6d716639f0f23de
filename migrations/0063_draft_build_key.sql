-- +goose Up
-- Which build of which workflow run saved a draft iteration: the run ID and the run's build
-- count ("<run id>/3"). store.SaveBuild numbers an iteration in its own transaction; a
-- build replayed after its worker died between the save and the end of its workflow task
-- saves again under the same key, finds its row here and keeps its number. Null on rows
-- numbered by the workflow itself (runs from before the key). A key names a build of one
-- ticket's run, so it is unique per ticket.
ALTER TABLE drafts ADD COLUMN build_key text;
CREATE UNIQUE INDEX drafts_build_key ON drafts (ticket_id, build_key) WHERE build_key IS NOT NULL;

-- +goose Down
DROP INDEX drafts_build_key;
ALTER TABLE drafts DROP COLUMN build_key;
