-- +goose Up
-- The optional name on a ticket's account (ticket.Account.Name; intake fills it from the
-- mail's From name). It is personal data: hidden from remote models (package redact) and
-- blanked by retention (store.PurgeBefore).
ALTER TABLE ticket_revisions ADD COLUMN account_name text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE ticket_revisions DROP COLUMN account_name;
