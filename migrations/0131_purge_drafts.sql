-- +goose Up
-- Retention covers the drafts' own text too (store.PurgeBefore): a reply can greet the
-- customer by name and restate what they wrote, and its claims and the guard's sentences
-- quote it. A purged draft keeps its IDs, bindings, evidence, verdicts, scores and counts.
ALTER TABLE drafts ADD COLUMN purged_at timestamptz;
CREATE INDEX drafts_created_at ON drafts (created_at) WHERE purged_at IS NULL;

-- +goose Down
DROP INDEX drafts_created_at;
ALTER TABLE drafts DROP COLUMN purged_at;
