-- +goose Up
-- Review gates the send. A draft that must be reviewed (a forced-review rule or recipient
-- ambiguity at intake, or confidence below the review threshold) answers send-check
-- 'review_pending' until a reviewer approves it or overrides the gate with a reason
-- (state 'overridden', the reason kept). An approved draft that went stale before its
-- hand-off is 'held' in the queue, the reason in handoff_error, instead of being handed
-- off. A 'sent' reported for a draft nobody approved is kept with its override reason.
ALTER TABLE review_queue DROP CONSTRAINT review_queue_state_check;
ALTER TABLE review_queue ADD CONSTRAINT review_queue_state_check
    CHECK (state IN ('waiting', 'approved', 'handed_off', 'recorded', 'handoff_failed', 'held', 'overridden',
                     'pulled', 'killed', 'sent', 'closed'));
ALTER TABLE review_queue ADD COLUMN override_reason text NOT NULL DEFAULT '';

ALTER TABLE send_checks DROP CONSTRAINT send_checks_verdict_check;
ALTER TABLE send_checks ADD CONSTRAINT send_checks_verdict_check
    CHECK (verdict IN ('ok', 'stale', 'unchecked', 'blocked', 'unsupported', 'review_pending'));
ALTER TABLE send_checks ADD COLUMN review jsonb NOT NULL DEFAULT '[]';

ALTER TABLE sent_replies ADD COLUMN override_reason text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE sent_replies DROP COLUMN override_reason;
ALTER TABLE send_checks DROP COLUMN review;
DELETE FROM send_checks WHERE verdict = 'review_pending';
ALTER TABLE send_checks DROP CONSTRAINT send_checks_verdict_check;
ALTER TABLE send_checks ADD CONSTRAINT send_checks_verdict_check
    CHECK (verdict IN ('ok', 'stale', 'unchecked', 'blocked', 'unsupported'));
ALTER TABLE review_queue DROP COLUMN override_reason;
UPDATE review_queue SET state = 'approved' WHERE state IN ('held', 'overridden');
ALTER TABLE review_queue DROP CONSTRAINT review_queue_state_check;
ALTER TABLE review_queue ADD CONSTRAINT review_queue_state_check
    CHECK (state IN ('waiting', 'approved', 'handed_off', 'recorded', 'handoff_failed', 'pulled', 'killed', 'sent', 'closed'));
