-- +goose Up
-- Who is taking a queued review: at most one reviewer per ticket, set and cleared from the
-- review page so two reviewers do not read the same draft. Each change is also a review
-- note (action 'assign', assignee the reviewer it went to, '' when cleared), so the
-- ticket's notes say who assigned it to whom and when. An assignment belongs to the
-- ticket's agent (migration 0120's row-level security).
CREATE TABLE review_assignments (
    ticket_id   text PRIMARY KEY,
    assignee    text NOT NULL,
    assigned_by text NOT NULL,
    at          timestamptz NOT NULL DEFAULT now(),
    agent_id    text NOT NULL DEFAULT current_setting('supportdraft.agent') REFERENCES agents
);
SELECT agent_isolation('review_assignments');
CREATE INDEX review_assignments_assignee ON review_assignments (assignee);

ALTER TABLE review_notes ADD COLUMN assignee text NOT NULL DEFAULT '';
ALTER TABLE review_notes DROP CONSTRAINT review_notes_action_check;
ALTER TABLE review_notes ADD CONSTRAINT review_notes_action_check CHECK (action IN ('approve', 'pull', 'kill', 'assign'));

-- +goose Down
DELETE FROM review_notes WHERE action = 'assign';
ALTER TABLE review_notes DROP CONSTRAINT review_notes_action_check;
ALTER TABLE review_notes ADD CONSTRAINT review_notes_action_check CHECK (action IN ('approve', 'pull', 'kill'));
ALTER TABLE review_notes DROP COLUMN assignee;
DROP TABLE review_assignments;
