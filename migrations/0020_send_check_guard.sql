-- +goose Up
-- Send-check runs the guard on the text about to be sent: a verdict 'unsupported' lists the
-- commitment sentences no eligible source backs, each with its reason. An agent may send
-- anyway with a reason; the override is kept with the verdict it overrode.
ALTER TABLE send_checks DROP CONSTRAINT send_checks_verdict_check;
ALTER TABLE send_checks ADD CONSTRAINT send_checks_verdict_check
    CHECK (verdict IN ('ok', 'stale', 'unchecked', 'blocked', 'unsupported'));
ALTER TABLE send_checks ADD COLUMN unsupported jsonb NOT NULL DEFAULT '[]';
ALTER TABLE send_checks ADD COLUMN override_reason text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE send_checks DROP COLUMN override_reason;
ALTER TABLE send_checks DROP COLUMN unsupported;
DELETE FROM send_checks WHERE verdict = 'unsupported';
ALTER TABLE send_checks DROP CONSTRAINT send_checks_verdict_check;
ALTER TABLE send_checks ADD CONSTRAINT send_checks_verdict_check
    CHECK (verdict IN ('ok', 'stale', 'unchecked', 'blocked'));
