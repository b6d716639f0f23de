-- +goose Up
-- The hand-off of an approved draft to the help desk is now a delivery, and its outcome is
-- the entry's state: handed_off (the help desk took it), recorded (no help desk URL is
-- configured: approved and recorded here, nobody received it), handoff_failed (the help
-- desk refused it or stayed unreachable through the retries: a person must pass it on).
ALTER TABLE review_queue DROP CONSTRAINT review_queue_state_check;
ALTER TABLE review_queue ADD CONSTRAINT review_queue_state_check
    CHECK (state IN ('waiting', 'approved', 'handed_off', 'recorded', 'handoff_failed', 'pulled', 'killed', 'sent', 'closed'));
ALTER TABLE review_queue ADD COLUMN handoff_error text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE review_queue DROP COLUMN handoff_error;
UPDATE review_queue SET state = 'handed_off' WHERE state IN ('recorded', 'handoff_failed');
ALTER TABLE review_queue DROP CONSTRAINT review_queue_state_check;
ALTER TABLE review_queue ADD CONSTRAINT review_queue_state_check
    CHECK (state IN ('waiting', 'approved', 'handed_off', 'pulled', 'killed', 'sent', 'closed'));
