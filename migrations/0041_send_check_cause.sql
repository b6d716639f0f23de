-- +goose Up
-- Why a send was allowed unchecked (check_failed, temporal_unreachable), so the admin
-- view can count unchecked sends by cause from the database rather than one process's
-- counters.
ALTER TABLE send_checks ADD COLUMN cause text NOT NULL DEFAULT '';
CREATE INDEX send_checks_at ON send_checks (at);

-- +goose Down
DROP INDEX send_checks_at;
ALTER TABLE send_checks DROP COLUMN cause;
