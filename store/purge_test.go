package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// Retention blanks the text of rows older than the cutoff and leaves recent rows whole;
// every row keeps its IDs, hashes and verdicts, and a dry run changes nothing.
func TestPurgeRemovesOldTextAndKeepsIDsAndVerdicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	db := s.Pool()
	now := time.Now().UTC()
	old, recent := now.AddDate(0, 0, -100), now.AddDate(0, 0, -10)

	for _, id := range []string{"OLD-1", "NEW-1"} {
		require.NoError(t, s.SaveTicket(ctx, &ticket.Ticket{TicketID: id, Revision: 1, UpdatedAt: now, Channel: "email",
			Subject: "Refund for Ana Ruiz", Account: ticket.Account{ID: "A-1", Plan: "pro", Region: "eu"},
			Messages: []ticket.Message{{Author: "customer", At: now, Body: "Please refund ana@example.com"}}}))
		ref, err := s.SaveAgentText(ctx, id, "send_check", "Dear Ana, your refund is on its way.")
		require.NoError(t, err)
		_, err = db.Exec(ctx, `INSERT INTO send_checks (ticket_id, iteration, verdict, text_id) VALUES ($1, 1, 'ok', $2)`, id, ref.ID)
		require.NoError(t, err)
		_, err = db.Exec(ctx, `INSERT INTO send_checks (ticket_id, iteration, verdict, unsupported, override_reason)
			VALUES ($1, 1, 'unsupported', '[{"sentence":"Ana, we refund you 90 days.","reason":"no source states 90 days"}]', 'Ana called, manager agreed')`, id)
		require.NoError(t, err)
		require.NoError(t, s.LogRejection(ctx, id, 1, "refunds", "We refund within 60 days.", "no eligible source"))
	}
	_, err := db.Exec(ctx, `UPDATE rejections SET subject = 'refund for ana'`)
	require.NoError(t, err)
	for table, col := range map[string]string{"ticket_revisions": "received_at", "agent_texts": "created_at", "rejections": "at", "send_checks": "at"} {
		_, err := db.Exec(ctx, `UPDATE `+table+` SET `+col+` = CASE WHEN ticket_id = 'OLD-1' THEN $1::timestamptz ELSE $2::timestamptz END`, old, recent)
		require.NoError(t, err)
	}
	cutoff := now.AddDate(0, 0, -90)

	dry, err := s.PurgeBefore(ctx, cutoff, true)
	require.NoError(t, err)
	counts := map[string]store.PurgeCount{}
	for _, c := range dry.Tables {
		counts[c.Table] = c
	}
	for _, table := range []string{"ticket_revisions", "agent_texts", "rejections", "send_checks"} {
		assert.EqualValues(t, 1, counts[table].Rows, table)
		require.NotNil(t, counts[table].Oldest, table)
		assert.WithinDuration(t, old, *counts[table].Oldest, time.Second, table)
	}
	got, err := s.Ticket(ctx, "OLD-1", 1)
	require.NoError(t, err)
	assert.Equal(t, "Refund for Ana Ruiz", got.Subject, "a dry run changes nothing")

	_, err = s.PurgeBefore(ctx, cutoff, false)
	require.NoError(t, err)

	got, err = s.Ticket(ctx, "OLD-1", 1)
	require.NoError(t, err)
	assert.Empty(t, got.Subject)
	assert.Empty(t, got.Messages)
	assert.Equal(t, "pro", got.Account.Plan, "the account's eligibility fields stay")
	kept, err := s.Ticket(ctx, "NEW-1", 1)
	require.NoError(t, err)
	assert.Equal(t, "Please refund ana@example.com", kept.Messages[0].Body)

	var text *string
	var sha, verdict string
	require.NoError(t, db.QueryRow(ctx, `SELECT a.text, a.sha256, c.verdict FROM send_checks c JOIN agent_texts a ON a.id = c.text_id
		WHERE c.ticket_id = 'OLD-1'`).Scan(&text, &sha, &verdict))
	assert.Nil(t, text, "the send-check text is gone")
	assert.NotEmpty(t, sha, "its hash stays")
	assert.Equal(t, "ok", verdict, "the verdict stays")
	require.NoError(t, db.QueryRow(ctx, `SELECT text FROM agent_texts WHERE ticket_id = 'NEW-1'`).Scan(&text))
	require.NotNil(t, text)

	var unsupported, override string
	require.NoError(t, db.QueryRow(ctx, `SELECT unsupported::text, override_reason FROM send_checks WHERE ticket_id = 'OLD-1' AND verdict = 'unsupported'`).Scan(&unsupported, &override))
	assert.JSONEq(t, `[{"reason":"no source states 90 days"}]`, unsupported, "the sentence goes, its reason stays")
	assert.Empty(t, override, "the agent's override reason goes")
	require.NoError(t, db.QueryRow(ctx, `SELECT override_reason FROM send_checks WHERE ticket_id = 'NEW-1' AND verdict = 'unsupported'`).Scan(&override))
	assert.Equal(t, "Ana called, manager agreed", override, "recent text stays")

	var sentences, subjects []string
	rows, err := db.Query(ctx, `SELECT sentence, subject FROM rejections ORDER BY ticket_id`)
	require.NoError(t, err)
	for rows.Next() {
		var sentence, subject string
		require.NoError(t, rows.Scan(&sentence, &subject))
		sentences, subjects = append(sentences, sentence), append(subjects, subject)
	}
	assert.Equal(t, []string{"We refund within 60 days.", ""}, sentences, "NEW-1 keeps its sentence, OLD-1's row stays blank")
	assert.Equal(t, []string{"refund for ana", ""}, subjects, "what OLD-1 asked about is the customer's words too")
	require.NoError(t, s.LogRejection(ctx, "OLD-1", 1, "refunds", "", "no eligible source"), "a blank purged row does not block a new one")

	again, err := s.PurgeBefore(ctx, cutoff, true)
	require.NoError(t, err)
	for _, c := range again.Tables {
		assert.Zero(t, c.Rows, "%s: nothing is left to purge", c.Table)
	}
}

// The reasons a draft went out without its review (the help desk's and a reviewer's) are
// agent text: retention blanks them, and the verdict, who and when stay.
func TestPurgeBlanksOverrideReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	db := s.Pool()
	old := time.Now().UTC().AddDate(0, 0, -100)
	_, err := db.Exec(ctx, `INSERT INTO sent_replies (ticket_id, iteration, text_sha256, edited, verdict, sent_at, agent, override_reason, recorded_at)
		VALUES ('OLD-1', 1, 'x', false, 'review_pending', $1, 'bob', 'Ana called and asked for it', $1)`, old)
	require.NoError(t, err)
	_, err = db.Exec(ctx, `INSERT INTO review_queue (ticket_id, iteration, state, confidence, low_confidence, queued_at, review_until,
		decided_by, override_reason, updated_at) VALUES ('OLD-1', 1, 'overridden', 0.3, true, $1, $1, 'rita', 'Ana is a lawyer', $1)`, old)
	require.NoError(t, err)

	_, err = s.PurgeBefore(ctx, old.AddDate(0, 0, 10), false)
	require.NoError(t, err)
	var sentReason, verdict, agent, queueReason, by string
	require.NoError(t, db.QueryRow(ctx, `SELECT override_reason, verdict, agent FROM sent_replies WHERE ticket_id = 'OLD-1'`).Scan(&sentReason, &verdict, &agent))
	require.NoError(t, db.QueryRow(ctx, `SELECT override_reason, decided_by FROM review_queue WHERE ticket_id = 'OLD-1'`).Scan(&queueReason, &by))
	assert.Empty(t, sentReason)
	assert.Empty(t, queueReason)
	assert.Equal(t, "review_pending", verdict)
	assert.Equal(t, "bob", agent)
	assert.Equal(t, "rita", by)
}

// A reviewer's note, the inbox funnel's reasons (they can name the sender or quote the
// triage model) and a hand-off's error (it can quote the help desk's answer) are text
// about a customer: retention blanks them, and what happened, who and when stay. Newer
// rows keep their text.
func TestPurgeBlanksReviewNotesFunnelReasonsAndHandOffErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	db := s.Pool()
	old := time.Now().UTC().AddDate(0, 0, -100)
	recent := time.Now().UTC()
	for _, at := range []time.Time{old, recent} {
		id := "OLD-2"
		if at == recent {
			id = "NEW-2"
		}
		_, err := db.Exec(ctx, `INSERT INTO review_notes (ticket_id, iteration, action, decided_by, reason, at)
			VALUES ($1, 1, 'kill', 'rita', 'Ana Pereira is disputing with her bank', $2)`, id, at)
		require.NoError(t, err)
		_, err = db.Exec(ctx, `INSERT INTO funnel_events (message_id, thread_id, stage, outcome, reason, at)
			VALUES ($1, 'th-1', 'filters', 'skip', 'mail loop: the sender ana@example.com is our own support address', $2)`, id, at)
		require.NoError(t, err)
		_, err = db.Exec(ctx, `INSERT INTO review_queue (ticket_id, iteration, state, confidence, low_confidence, queued_at, review_until,
			decided_by, handoff_error, updated_at) VALUES ($1, 1, 'handoff_failed', 0.9, false, $2, $2, 'rita', 'help desk answered 422: Dear Ana, your refund', $2)`, id, at)
		require.NoError(t, err)
	}

	rep, err := s.PurgeBefore(ctx, old.AddDate(0, 0, 10), false)
	require.NoError(t, err)
	rows := map[string]int64{}
	for _, c := range rep.Tables {
		rows[c.Table] = c.Rows
	}
	assert.Equal(t, int64(1), rows["review_notes"])
	assert.Equal(t, int64(1), rows["funnel_events"])
	assert.Equal(t, int64(1), rows["review_queue"])

	var note, by, action, funnel, outcome, handoff, state string
	require.NoError(t, db.QueryRow(ctx, `SELECT reason, decided_by, action FROM review_notes WHERE ticket_id = 'OLD-2'`).Scan(&note, &by, &action))
	require.NoError(t, db.QueryRow(ctx, `SELECT reason, outcome FROM funnel_events WHERE message_id = 'OLD-2'`).Scan(&funnel, &outcome))
	require.NoError(t, db.QueryRow(ctx, `SELECT handoff_error, state FROM review_queue WHERE ticket_id = 'OLD-2'`).Scan(&handoff, &state))
	assert.Empty(t, note)
	assert.Empty(t, funnel)
	assert.Empty(t, handoff)
	assert.Equal(t, "rita", by)
	assert.Equal(t, "kill", action)
	assert.Equal(t, "skip", outcome)
	assert.Equal(t, "handoff_failed", state)

	require.NoError(t, db.QueryRow(ctx, `SELECT reason FROM review_notes WHERE ticket_id = 'NEW-2'`).Scan(&note))
	require.NoError(t, db.QueryRow(ctx, `SELECT reason FROM funnel_events WHERE message_id = 'NEW-2'`).Scan(&funnel))
	require.NoError(t, db.QueryRow(ctx, `SELECT handoff_error FROM review_queue WHERE ticket_id = 'NEW-2'`).Scan(&handoff))
	assert.NotEmpty(t, note)
	assert.NotEmpty(t, funnel)
	assert.NotEmpty(t, handoff)
}
