package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// PurgeCount is what retention does, or would do, to one table: how many rows lose their
// text and when the oldest of them was written.
type PurgeCount struct {
	Table  string     `json:"table"`
	What   string     `json:"what"`
	Rows   int64      `json:"rows"`
	Oldest *time.Time `json:"oldest,omitempty"`
}

// PurgeReport is a purge's (or a dry run's) counts, table by table, for texts written
// before Before.
type PurgeReport struct {
	Before time.Time    `json:"before"`
	DryRun bool         `json:"dry_run"`
	Tables []PurgeCount `json:"tables"`
}

// purgeTarget is one kind of text retention removes: the rows that still hold it and were
// written before $1, and the statement that blanks them. Rows stay, with their IDs,
// revisions, hashes, verdicts and counts: only the words go.
type purgeTarget struct {
	table, what string
	at          string // the column that says when the text was written
	where       string // rows that still hold text, written before $1
	set         string
}

var purgeTargets = []purgeTarget{
	{"ticket_revisions", "subject, messages and the account's name (plan, region, hashes and revision numbers stay)", "received_at",
		"purged_at IS NULL AND received_at < $1", "subject = '', messages = '[]', account_name = '', purged_at = now()"},
	{"inbox_messages", "the mail's subject, body and addresses (IDs, thread and account stay)", "stored_at",
		"purged_at IS NULL AND stored_at < $1",
		"message = message - 'subject' - 'body' - 'from' - 'to' - 'cc' - 'bcc' - 'headers', purged_at = now()"},
	{"agent_texts", "edit and send-check texts and the guard's checks of them (ID and SHA-256 stay)", "created_at",
		"(text IS NOT NULL OR checks IS NOT NULL) AND created_at < $1", "text = NULL, checks = NULL"},
	{"drafts", "the agent's edited text (the draft, its verdicts and scores stay)", "edited_at",
		"edited_text IS NOT NULL AND edited_at < $1", "edited_text = NULL"},
	{"drafts", "the reply, the drafter's reply, the note and the writer's reasoning, the words of each claim and guarded sentence, and the words the rubric's findings quote (bindings, evidence, verdicts, scores and counts stay)", "created_at",
		"purged_at IS NULL AND created_at < $1",
		"reply = '', model_reply = '', note = '', reasoning = '', " +
			"rubric = CASE WHEN rubric ? 'scores' THEN jsonb_set(rubric, '{scores}', (SELECT coalesce(jsonb_agg(sc - 'findings'), '[]'::jsonb) FROM jsonb_array_elements(rubric->'scores') sc)) ELSE rubric END, " +
			"claims = (SELECT coalesce(jsonb_agg(c - 'sentence' - 'quote' - 'failure' - 'reasoning'), '[]'::jsonb) FROM jsonb_array_elements(claims) c), " +
			"sentences = (SELECT coalesce(jsonb_agg(x - 'text' - 'reason' - 'placeholders'), '[]'::jsonb) FROM jsonb_array_elements(sentences) x), " +
			"purged_at = now()"},
	{"build_failures", "why the ticket's last build failed, which may quote a model's or the help desk's answer (ticket, revision and date stay)", "failed_at",
		"reason <> '' AND failed_at < $1", "reason = ''"},
	{"send_checks", "the sentences an unsupported verdict quoted and the agent's override reason (verdict, each sentence's reason and the date stay)", "at",
		"at < $1 AND (override_reason <> '' OR jsonb_path_exists(unsupported, '$[*].sentence'))",
		"unsupported = (SELECT coalesce(jsonb_agg(u - 'sentence'), '[]'::jsonb) FROM jsonb_array_elements(unsupported) u), override_reason = ''"},
	{"sent_replies", "the reason a reply went out without its review (hash, verdict, agent and date stay)", "recorded_at",
		"override_reason <> '' AND recorded_at < $1", "override_reason = ''"},
	{"review_queue", "a reviewer's reason for letting a draft go without approval, and why a hand-off failed or was held, which may quote the help desk's answer (state, who and when stay)", "updated_at",
		"(override_reason <> '' OR handoff_error <> '') AND updated_at < $1", "override_reason = '', handoff_error = ''"},
	{"review_notes", "the reason a reviewer gave for an approval, pull or kill (action, who and when stay)", "at",
		"reason <> '' AND at < $1", "reason = ''"},
	{"funnel_events", "why the inbox passed, skipped or held a message, which may name the sender or quote the triage model (stage, outcome, bucket and date stay)", "at",
		"reason <> '' AND at < $1", "reason = ''"},
	{"traces", "the traced term, which may quote a draft or a ticket (outcome, account and counts stay)", "traced_at",
		"term <> '' AND traced_at < $1", "term = ''"},
	{"rejections", "struck and unanswered sentences and what they asked about (reason, area and date stay, so gaps still counts them)", "at",
		"purged_at IS NULL AND at < $1", "sentence = '', subject = '', purged_at = now()"},
}

// PurgeBefore blanks every text retention covers that was written before before, in one
// transaction, and reports the counts; with dryRun it only counts. Retention is the
// deployment's: the purge acts for every agent (AllAgents), whoever asks.
func (s *Store) PurgeBefore(ctx context.Context, before time.Time, dryRun bool) (*PurgeReport, error) {
	rep := &PurgeReport{Before: before, DryRun: dryRun}
	ctx, err := s.AllAgents(ctx)
	if err != nil {
		return nil, err
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		for _, t := range purgeTargets {
			c := PurgeCount{Table: t.table, What: t.what}
			err := tx.QueryRow(ctx, fmt.Sprintf(`SELECT count(*), min(%s) FROM %s WHERE %s`, t.at, t.table, t.where), before).Scan(&c.Rows, &c.Oldest)
			if err != nil {
				return fmt.Errorf("count %s to purge: %w", t.table, err)
			}
			if !dryRun && c.Rows > 0 {
				if _, err := tx.Exec(ctx, fmt.Sprintf(`UPDATE %s SET %s WHERE %s`, t.table, t.set, t.where), before); err != nil {
					return fmt.Errorf("purge %s: %w", t.table, err)
				}
			}
			rep.Tables = append(rep.Tables, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}
