-- +goose Up
-- The review queue names each entry's agent, so a reviewer of several agents sees whose
-- draft each row is. The agents data layer (migration 0120) adds the same column to every
-- agent-owned table under row-level security; this adds it only where that has not run.
ALTER TABLE review_queue ADD COLUMN IF NOT EXISTS agent_id text NOT NULL DEFAULT 'billing';

-- +goose Down
-- Left in place: the agents data layer may own the column.
SELECT 1;
