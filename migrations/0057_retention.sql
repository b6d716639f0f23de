-- +goose Up
-- Retention (store.Purge): customer and agent text older than SUPPORTDRAFT_RETENTION is
-- blanked in place and the row marked purged_at; IDs, revisions, hashes, verdicts and
-- counts stay. A purged rejection keeps its reason and area (gaps still counts it), so
-- its sentence no longer keys it: the uniqueness that stops a retried save from logging a
-- sentence twice holds only for rows not purged.
ALTER TABLE ticket_revisions ADD COLUMN purged_at timestamptz;
ALTER TABLE inbox_messages ADD COLUMN purged_at timestamptz;
ALTER TABLE rejections ADD COLUMN purged_at timestamptz;
ALTER TABLE rejections DROP CONSTRAINT rejections_ticket_id_iteration_sentence_key;
CREATE UNIQUE INDEX rejections_sentence_once ON rejections (ticket_id, iteration, sentence) WHERE purged_at IS NULL;
CREATE INDEX ticket_revisions_received_at ON ticket_revisions (received_at) WHERE purged_at IS NULL;
CREATE INDEX inbox_messages_stored_at ON inbox_messages (stored_at) WHERE purged_at IS NULL;

-- +goose Down
DROP INDEX inbox_messages_stored_at;
DROP INDEX ticket_revisions_received_at;
DELETE FROM rejections WHERE purged_at IS NOT NULL;
DROP INDEX rejections_sentence_once;
ALTER TABLE rejections ADD CONSTRAINT rejections_ticket_id_iteration_sentence_key UNIQUE (ticket_id, iteration, sentence);
ALTER TABLE rejections DROP COLUMN purged_at;
ALTER TABLE inbox_messages DROP COLUMN purged_at;
ALTER TABLE ticket_revisions DROP COLUMN purged_at;
