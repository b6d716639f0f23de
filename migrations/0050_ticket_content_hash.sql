-- +goose Up
-- The SHA-256 of a revision's content as the help desk sent it: a retried webhook with the
-- same content is a no-op, the same revision number with different content is refused.
ALTER TABLE ticket_revisions ADD COLUMN content_sha256 bytea;

-- +goose Down
ALTER TABLE ticket_revisions DROP COLUMN content_sha256;
