-- +goose Up
-- The last failed build of a ticket's draft, so the failure is visible where the draft is
-- read (API, sidebar, review queue) even when no draft was ever saved. One row per ticket:
-- a later failure replaces it, a saved draft deletes it (store.SaveDraft).
CREATE TABLE build_failures (
    ticket_id text PRIMARY KEY,
    revision  integer NOT NULL,
    reason    text NOT NULL,
    failed_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE build_failures;
