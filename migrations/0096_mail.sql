-- +goose Up
-- Raw mail (POST /v1/inbox/raw, `supportdraft intake imap`) joins its thread by message
-- ID: a reply finds the thread of a stored message it references, and the thread's
-- earlier messages are counted, both by thread.
CREATE INDEX inbox_messages_thread ON inbox_messages (thread_id);

-- What an IMAP poller took from a mailbox, one row per message UID: claimed before the
-- message enters the funnel, delivered_at set once it has. A poller restarted after a
-- crash resumes the claimed rows still undelivered, then reads past the highest UID, so
-- no message is read twice or skipped. A UID only names a message within one UIDVALIDITY
-- of its mailbox: a new UIDVALIDITY starts the mailbox afresh.
CREATE TABLE imap_messages (
    mailbox      text NOT NULL,             -- user@host:port/mailbox
    uid_validity bigint NOT NULL,
    uid          bigint NOT NULL,
    message_id   text NOT NULL DEFAULT '',  -- empty when the message was refused
    refused      text NOT NULL DEFAULT '',  -- why the message could not be read, naming the header; never its text
    claimed_at   timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    PRIMARY KEY (mailbox, uid_validity, uid)
);
-- The claims a restarted poller resumes: few, however long the mailbox's history.
CREATE INDEX imap_messages_pending ON imap_messages (mailbox, uid_validity, uid) WHERE delivered_at IS NULL;

-- +goose Down
DROP TABLE imap_messages;
DROP INDEX inbox_messages_thread;
