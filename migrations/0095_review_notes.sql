-- +goose Up
-- Why a reviewer decided: the review queue's row keeps who and when of the last decision,
-- this keeps the reason given with each one (a pull-back or kill the agent reads in the
-- sidebar, an approval of a draft the page warned about), for the sidebar and the review
-- page's "decided" tab.
CREATE TABLE review_notes (
    id         bigserial PRIMARY KEY,
    ticket_id  text NOT NULL,
    iteration  integer NOT NULL,
    action     text NOT NULL CHECK (action IN ('approve', 'pull', 'kill')),
    decided_by text NOT NULL,
    reason     text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_notes_ticket ON review_notes (ticket_id, at DESC);

-- +goose Down
DROP TABLE review_notes;
