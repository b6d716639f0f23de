package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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

// canary is customer and agent text: a name no policy or label holds.
const canary = "Ana Quillfeather"

// purgedColumns are the columns that hold customer or agent text: retention blanks them.
// The test writes the canary into each, old enough to go.
var purgedColumns = []string{
	"agent_texts.checks", "agent_texts.text",
	"build_failures.reason",
	"drafts.claims", "drafts.edited_text", "drafts.model_reply", "drafts.note", "drafts.reasoning", "drafts.reply", "drafts.rubric", "drafts.sentences",
	"funnel_events.reason",
	"inbox_messages.message",
	"rejections.sentence", "rejections.subject",
	"review_notes.reason",
	"review_queue.handoff_error", "review_queue.override_reason",
	"send_checks.override_reason", "send_checks.unsupported",
	"sent_replies.override_reason",
	"ticket_revisions.account_name", "ticket_revisions.messages", "ticket_revisions.subject",
	"traces.term",
}

// keptColumns are the text columns that hold no customer or agent text, and why. A new
// column must be added to one list or the other: the test fails on a column in neither.
var keptColumns = map[string]string{}

func keep(why string, cols ...string) {
	for _, c := range cols {
		keptColumns[c] = why
	}
}

func init() {
	keep("policy as written and approved: documents, versions, chunks, their index and the approvals' audit",
		"accepted_contradictions.a_chunk", "accepted_contradictions.a_ref", "accepted_contradictions.a_values",
		"accepted_contradictions.b_chunk", "accepted_contradictions.b_ref", "accepted_contradictions.b_values",
		"accepted_contradictions.reason", "accepted_contradictions.term",
		"approvals.action", "approvals.detail", "approvals.doc_id",
		"chunks.anchor", "chunks.audience", "chunks.embedder", "chunks.heading", "chunks.id", "chunks.subheadings", "chunks.text", "documents.doc_id", "lexemes.lexeme",
		"retrieval_scopes.embedder", "retrieval_scopes.plan", "retrieval_scopes.region",
		"scope_chunks.chunk_id", "scope_names.kind", "scope_names.name", "scope_side.chunk_id", "scope_side.kind",
		"versions.area", "versions.body", "versions.content_hash", "versions.doc_id", "versions.locale", "versions.owner",
		"versions.path", "versions.plans", "versions.regions", "versions.source", "versions.status", "versions.title")
	keep("IDs, which the help desk or the mail server gave",
		"agent_texts.ticket_id", "build_failures.ticket_id", "drafts.build_key", "drafts.ticket_id", "funnel_events.message_id",
		"funnel_events.thread_id", "imap_messages.mailbox", "imap_messages.message_id", "inbox_messages.message_id",
		"inbox_messages.thread_id", "inbox_revisions.message_id", "inbox_revisions.ticket_id", "rejections.ticket_id",
		"review_assignments.ticket_id", "review_notes.ticket_id", "review_queue.ticket_id", "send_checks.ticket_id", "sent_replies.ticket_id",
		"ticket_revisions.account_id", "ticket_revisions.ticket_id", "webhook_deliveries.delivery")
	keep("a label from a fixed set: status, verdict, kind, stage, bucket, plan, region, locale, area",
		"agent_texts.kind", "api_tokens.role", "drafts.area", "drafts.locale", "drafts.plan", "drafts.region", "drafts.status",
		"funnel_events.bucket", "funnel_events.outcome", "funnel_events.stage", "rejections.area", "review_notes.action",
		"review_queue.bucket", "review_queue.state", "send_checks.cause", "send_checks.verdict", "sent_replies.verdict",
		"ticket_revisions.channel", "ticket_revisions.locale", "ticket_revisions.plan", "ticket_revisions.region",
		"traces.locale", "traces.outcome", "traces.plan", "traces.region")
	keep("a hash or a signature, never the text",
		"agent_texts.sha256", "api_tokens.hash", "sent_replies.text_sha256", "sign_in_codes.hash", "slack_requests.signature",
		"ticket_revisions.content_sha256")
	for _, table := range append(append([]string{}, agentTables...), lookupTables...) {
		keep("the agent the row belongs to (row-level security)", table+".agent_id")
	}
	keep("an agent's own configuration: its ID, name, support addresses and settings", "agents.id", "agents.name", "agents.addresses", "agents.settings")
	keep("the agents a token acts for", "api_tokens.agents")
	keep("retrieval's lexeme lookup: chunk IDs and policy terms", "chunk_terms.chunk_id", "chunk_terms.terms")
	keep("the triage bucket the writer filed the question under", "drafts.category")
	keep("who acted: staff names kept for the audit, and a token's label",
		"accepted_contradictions.accepted_by", "api_tokens.name", "review_assignments.assignee", "review_assignments.assigned_by", "review_notes.assignee", "kill_switch.changed_by", "review_notes.decided_by", "review_queue.decided_by", "sent_replies.agent")
	keep("written by the system about policy: chunk references, scores, stale and gate reasons, rule names, a refusal naming a header",
		"drafts.bound", "drafts.evidence", "drafts.scores", "drafts.stale_reasons", "imap_messages.refused", "rejections.reason",
		"review_queue.forced_review", "send_checks.reasons", "send_checks.review", "traces.first_ref")
}

// textColumns lists every column of the schema that can hold words, as table.column.
func textColumns(t *testing.T, db testdb.Querier) []string {
	t.Helper()
	return testdb.Column[string](t, context.Background(), db, `SELECT c.table_name || '.' || c.column_name FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
		WHERE c.table_schema = current_schema() AND c.table_name <> 'goose_db_version'
		  AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea', 'USER-DEFINED')
		  AND c.udt_name NOT IN ('vector', 'halfvec', 'tsvector')
		ORDER BY 1`)
}

// Every column that can hold words is either purged or named as holding no customer or
// agent text, with why; the lists name no column the schema lacks.
func TestPurgeCoversEveryTextColumn(t *testing.T) {
	t.Parallel()
	s, _ := testdb.New(t)
	cols := textColumns(t, s.Pool())
	for _, c := range cols {
		_, kept := keptColumns[c]
		purged := slices.Contains(purgedColumns, c)
		assert.True(t, kept != purged, "%s: a text column must be purged (purgedColumns, store/purge.go) or kept with a reason (keptColumns), once", c)
	}
	for _, c := range purgedColumns {
		assert.Contains(t, cols, c, "purgedColumns names a column the schema lacks")
	}
	for c := range keptColumns {
		assert.Contains(t, cols, c, "keptColumns names a column the schema lacks")
	}
}

// After a purge no customer or agent text older than the retention is left anywhere: the
// canary, written into every purged column, is in none of the schema's text columns, and
// the same text written recently stays.
func TestPurgeLeavesNoOldCustomerTextInAnyTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	db := s.Pool()
	now := time.Now().UTC()
	old := now.AddDate(0, 0, -100)
	words := "Dear " + canary + ", your refund is on its way."
	for _, id := range []string{"OLD-1", "NEW-1"} {
		require.NoError(t, s.SaveTicket(ctx, &ticket.Ticket{TicketID: id, Revision: 1, UpdatedAt: now, Channel: "email",
			Subject: "Refund for " + canary, Account: ticket.Account{ID: "A-1", Plan: "pro", Region: "eu", Name: canary},
			Messages: []ticket.Message{{Author: "customer", At: now, Body: "Please refund me, " + canary}}}))
		_, err := s.SaveAgentText(ctx, id, "edit", words)
		require.NoError(t, err)
		for _, q := range []string{
			`UPDATE agent_texts SET checks = jsonb_build_array(jsonb_build_object('text', $2::text)) WHERE ticket_id = $1`,
			`INSERT INTO drafts (ticket_id, iteration, revision, status, eligible_at, plan, region, locale, reply, model_reply,
			   abstained, note, claims, sentences, bound, evidence, scores, unsupported, confidence, edited_text, edited_at, reasoning, rubric)
			 VALUES ($1, 1, 1, 'ready', now(), 'pro', 'eu', 'en', $2, $2, false, $2,
			   jsonb_build_array(jsonb_build_object('sentence', $2::text, 'quote', $2::text, 'chunk_ids', '["billing/refunds-annual@4#refund-window"]'::jsonb,
			     'span_ok', false, 'failure', $2::text, 'reasoning', $2::text)),
			   jsonb_build_array(jsonb_build_object('text', $2::text, 'kept', false, 'reason', $2::text, 'flagged', true)),
			   '[]', '[{"chunk_id":"billing/refunds-annual@4#refund-window","score":0.5}]', '{"fit":0.5}', 1, 0.4, $2, now(), $2,
			   jsonb_build_object('rubric', 'billing-default@1', 'scores', jsonb_build_array(jsonb_build_object('criterion', 'tone', 'score', 0.5,
			     'findings', jsonb_build_array(jsonb_build_object('rule', 'tone marker', 'span', $2::text))))))`,
			`INSERT INTO send_checks (ticket_id, iteration, verdict, unsupported, override_reason)
			 VALUES ($1, 1, 'unsupported', jsonb_build_array(jsonb_build_object('sentence', $2::text, 'reason', 'no source')), $2)`,
			`INSERT INTO sent_replies (ticket_id, iteration, text_sha256, edited, verdict, sent_at, agent, override_reason)
			 VALUES ($1, 1, 'x', false, 'review_pending', now(), 'bob', $2)`,
			`INSERT INTO review_queue (ticket_id, iteration, state, confidence, low_confidence, queued_at, review_until, decided_by,
			   override_reason, handoff_error) VALUES ($1, 1, 'handoff_failed', 0.9, false, now(), now(), 'rita', $2, $2)`,
			`INSERT INTO review_notes (ticket_id, iteration, action, decided_by, reason) VALUES ($1, 1, 'kill', 'rita', $2)`,
			`INSERT INTO funnel_events (message_id, thread_id, stage, outcome, reason) VALUES ($1, 'th-1', 'filters', 'skip', $2)`,
			`INSERT INTO inbox_messages (message_id, thread_id, received_at, message)
			 VALUES ($1, 'th-1', now(), jsonb_build_object('subject', $2::text, 'body', $2::text, 'from', jsonb_build_object('name', $2::text)))`,
			`INSERT INTO rejections (ticket_id, iteration, area, sentence, reason, subject) VALUES ($1, 1, 'refunds', $2, 'no eligible source', $2)`,
			`INSERT INTO build_failures (ticket_id, revision, reason) VALUES ($1, 1, $2)`,
			`INSERT INTO traces (term, judged_at, outcome, matches, eligible_statements, sent_matches, first_ref)
			 VALUES ($2, now(), 'absent', 0, 0, 0, $1)`,
		} {
			_, err := db.Exec(ctx, q, id, words)
			require.NoError(t, err, q)
		}
	}
	tables := map[string]bool{}
	for _, c := range purgedColumns {
		tables[strings.Split(c, ".")[0]] = true
	}
	for table := range tables {
		_, err := db.Exec(ctx, fmt.Sprintf(`UPDATE %s SET %s WHERE %s`, table, ageAll(t, db, table), idColumn(table)+` = 'OLD-1'`), old)
		require.NoError(t, err, table)
	}
	for _, c := range purgedColumns {
		assert.Equal(t, 2, rowsHolding(t, db, c), "%s: the canary was written, old and new", c)
	}

	_, err := s.PurgeBefore(ctx, now.AddDate(0, 0, -90), false)
	require.NoError(t, err)

	for _, c := range textColumns(t, db) {
		want := 0
		if slices.Contains(purgedColumns, c) {
			want = 1 // NEW-1's row keeps its text
		}
		assert.Equal(t, want, rowsHolding(t, db, c), "%s: rows still holding customer text", c)
	}
	var purged *time.Time
	var unsupported int
	var chunks string
	require.NoError(t, db.QueryRow(ctx, `SELECT purged_at, unsupported, claims->0->>'chunk_ids' FROM drafts WHERE ticket_id = 'OLD-1'`).Scan(&purged, &unsupported, &chunks))
	assert.NotNil(t, purged)
	assert.Equal(t, 1, unsupported, "counts stay")
	assert.Contains(t, chunks, "billing/refunds-annual@4#refund-window", "a claim keeps what it cited")
}

// ageAll sets every timestamp column of table to $1.
func ageAll(t *testing.T, db testdb.Querier, table string) string {
	t.Helper()
	cols := testdb.Column[string](t, context.Background(), db, `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()
		AND table_name = $1 AND data_type LIKE 'timestamp%' AND column_name <> 'purged_at'`, table)
	require.NotEmpty(t, cols, table)
	for i, c := range cols {
		cols[i] = c + " = $1"
	}
	return strings.Join(cols, ", ")
}

func idColumn(table string) string {
	switch table {
	case "funnel_events", "inbox_messages":
		return "message_id"
	case "traces":
		return "first_ref"
	}
	return "ticket_id"
}

// rowsHolding counts the rows whose column holds the canary.
func rowsHolding(t *testing.T, db interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, column string) int {
	t.Helper()
	table, col, _ := strings.Cut(column, ".")
	var n int
	require.NoError(t, db.QueryRow(context.Background(),
		fmt.Sprintf(`SELECT count(*) FROM %s WHERE %s::text LIKE '%%' || $1 || '%%'`, table, col), canary).Scan(&n), column)
	return n
}
