package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/rubric"
)

// SaveIteration stores one draft iteration, numbered by the caller, with its rejections, in
// one transaction. Saving the same iteration again (an activity retry) replaces it, so a
// retry never duplicates.
func (s *Store) SaveIteration(ctx context.Context, r *drafts.Saved, area string) error {
	return s.inTx(ctx, func(tx pgx.Tx) error { return saveIteration(ctx, tx, r, area, "") })
}

// SaveBuild stores the draft of one workflow build, with its rejections, and numbers it in
// the same transaction; r.Iteration is ignored and the number used is returned. buildKey
// names the build (the run ID and the run's build count): a row that already has it is
// this build saved before, by a worker that died before its workflow task completed and
// left no marker, so the replayed build rewrites that row and keeps its number. Any other
// build gets the ticket's next number. Numbering is safe under concurrent saves for one
// ticket (only one run per ticket exists, but nothing here relies on it): a per-ticket
// transaction lock serialises them, so the number read is still free when the row is
// written, and the upsert on (ticket, iteration) can only ever rewrite this build's row.
func (s *Store) SaveBuild(ctx context.Context, r *drafts.Saved, area, buildKey string) (int, error) {
	saved := *r
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// One round trip: the server runs the two in order, and the number is read after
		// the lock is held (each statement takes its own snapshot).
		number := &pgx.Batch{}
		number.Queue(`SELECT pg_advisory_xact_lock(hashtext('drafts:' || $1))`, r.TicketID)
		number.Queue(`SELECT coalesce(
			  (SELECT iteration FROM drafts WHERE ticket_id = $1 AND build_key = $2),
			  (SELECT coalesce(max(iteration), 0) + 1 FROM drafts WHERE ticket_id = $1))`,
			r.TicketID, buildKey).QueryRow(func(row pgx.Row) error { return row.Scan(&saved.Iteration) })
		if err := tx.SendBatch(ctx, number).Close(); err != nil {
			return fmt.Errorf("number draft of %s (build %s): %w", r.TicketID, buildKey, err)
		}
		return saveIteration(ctx, tx, &saved, area, buildKey)
	})
	return saved.Iteration, err
}

// saveIteration writes r as its (ticket, iteration) row, replacing one already there,
// clears the ticket's failed build and logs r's rejections, in one round trip. buildKey is
// kept on the row; empty when the caller numbered r.
func saveIteration(ctx context.Context, tx pgx.Tx, r *drafts.Saved, area, buildKey string) error {
	js := func(v any) []byte { b, _ := json.Marshal(v); return b }
	b := &pgx.Batch{}
	b.Queue(`
		INSERT INTO drafts (ticket_id, iteration, revision, status, eligible_at, plan, region, locale, reply,
		  model_reply, abstained, note, claims, sentences, bound, evidence, scores, unsupported, confidence, stale_reasons, area,
		  build_key, rubric, category, reasoning)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,NULLIF($22, ''),$23,$24,$25)
		ON CONFLICT (ticket_id, iteration) DO UPDATE SET revision = EXCLUDED.revision, status = EXCLUDED.status,
		  eligible_at = EXCLUDED.eligible_at, plan = EXCLUDED.plan, region = EXCLUDED.region, locale = EXCLUDED.locale,
		  reply = EXCLUDED.reply, model_reply = EXCLUDED.model_reply, abstained = EXCLUDED.abstained, note = EXCLUDED.note,
		  claims = EXCLUDED.claims, sentences = EXCLUDED.sentences, bound = EXCLUDED.bound, evidence = EXCLUDED.evidence,
		  scores = EXCLUDED.scores, unsupported = EXCLUDED.unsupported, confidence = EXCLUDED.confidence,
		  stale_reasons = EXCLUDED.stale_reasons, area = EXCLUDED.area, build_key = EXCLUDED.build_key,
		  rubric = EXCLUDED.rubric, category = EXCLUDED.category, reasoning = EXCLUDED.reasoning, updated_at = now()`,
		r.TicketID, r.Iteration, r.Revision, r.Status, r.EligibleAt, r.Account.Plan, r.Account.Region, r.Account.Locale,
		r.Reply, r.ModelReply, r.Abstained, r.Note, js(r.Claims), js(r.Sentences), js(r.Bound), js(r.Evidence),
		js(r.Scores), r.Unsupported, r.Confidence, js(nonNil(r.StaleReasons)), area, buildKey, rubricJSON(r), r.Category, r.Reasoning)
	b.Queue(`DELETE FROM build_failures WHERE ticket_id = $1`, r.TicketID)
	for _, rj := range rejectionsOf(r) {
		b.Queue(`INSERT INTO rejections (ticket_id, iteration, sentence, reason, area, subject)
			VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT DO NOTHING`, r.TicketID, r.Iteration, rj.sentence, rj.reason, area, rj.subject)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("save draft %s #%d (its row, failed build or rejection log): %w", r.TicketID, r.Iteration, err)
	}
	return nil
}

// rubricJSON is the draft's rubric scores for its column; NULL when it was not scored.
func rubricJSON(r *drafts.Saved) []byte {
	if r.Rubric == nil {
		return nil
	}
	b, _ := json.Marshal(r.Rubric)
	return b
}

// Reasons of the rejection log's lines for questions no eligible policy answers.
const (
	reasonAbstained    = "abstained: no eligible policy answers the question"
	reasonOpenQuestion = "partial answer: no eligible policy answers this question"
)

// rejection is one line of the rejection log.
type rejection struct{ sentence, reason, subject string }

// rejectionsOf is every miss of a draft iteration: each struck sentence; and what the
// customer asked that no policy answers, with what it asks about (the subject), either as
// one line for an abstention or one per open question of a partial answer.
func rejectionsOf(r *drafts.Saved) []rejection {
	var out []rejection
	for _, sr := range r.Sentences {
		if !sr.Kept {
			out = append(out, rejection{sentence: sr.Text, reason: sr.Reason})
		}
	}
	if r.Abstained {
		var subjects []string
		for _, u := range r.Unanswered {
			if u.Subject != "" {
				subjects = append(subjects, u.Subject)
			}
		}
		return append(out, rejection{sentence: abstentionLine(r.Note), reason: reasonAbstained, subject: strings.Join(subjects, ", ")})
	}
	for _, u := range r.Unanswered {
		if u.Question != "" {
			out = append(out, rejection{sentence: u.Question, reason: reasonOpenQuestion, subject: u.Subject})
		}
	}
	return out
}

// abstentionLine is what the rejection log shows for an abstention: the drafter's note on
// what no policy mentions, or, without one, that the question went unanswered.
func abstentionLine(note string) string {
	if line, _, _ := strings.Cut(strings.TrimSpace(note), "\n"); line != "" {
		return line
	}
	return "(question not answered by any eligible policy)"
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// SetDraftStatus records a status change (stale, discarded, closed) with its reasons.
func (s *Store) SetDraftStatus(ctx context.Context, ticketID string, iteration int, status string, reasons []drafts.StaleReason) error {
	b, _ := json.Marshal(nonNil(reasons))
	tag, err := s.db.Exec(ctx, `UPDATE drafts SET status = $3, stale_reasons = $4, updated_at = now()
		WHERE ticket_id = $1 AND iteration = $2`, ticketID, iteration, status, b)
	if err != nil {
		return fmt.Errorf("set status of draft %s #%d: %w", ticketID, iteration, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("draft %s #%d: %w", ticketID, iteration, ErrNotFound)
	}
	return nil
}

// SaveEdit stores the agent's edited text for a draft iteration.
func (s *Store) SaveEdit(ctx context.Context, ticketID string, iteration int, text string) error {
	_, err := s.db.Exec(ctx, `UPDATE drafts SET edited_text = $3, edited_at = now(), updated_at = now()
		WHERE ticket_id = $1 AND iteration = $2`, ticketID, iteration, text)
	return err
}

// RecordSendCheck keeps every send-check verdict, so unchecked sends can be counted and read.
func (s *Store) RecordSendCheck(ctx context.Context, ticketID string, c drafts.SendCheck) error {
	reasons, _ := json.Marshal(nonNil(c.Reasons))
	unsupported, _ := json.Marshal(nonNil(c.Unsupported))
	_, err := s.db.Exec(ctx, `INSERT INTO send_checks (ticket_id, iteration, verdict, reasons, cause, unsupported, override_reason)
		VALUES ($1,$2,$3,$4,$5,$6,$7)`, ticketID, c.Iteration, c.Verdict, reasons, c.Cause, unsupported, c.OverrideReason)
	return err
}

// latestSummarySQL reads the bindings of a ticket's newest saved iteration: all the send
// hook compares with the world at send time (StartSendCheck), without the reply, claims and
// sentences LatestIteration decodes.
const latestSummarySQL = `
	SELECT iteration, revision, status, plan, region, bound, confidence,
	       (SELECT count(*) FROM jsonb_array_elements(CASE jsonb_typeof(sentences) WHEN 'array' THEN sentences ELSE '[]' END) e
	        WHERE NOT (e->>'kept')::boolean)::int -- a draft saved with no sentences holds JSON null
	FROM drafts WHERE ticket_id = $1 ORDER BY iteration DESC LIMIT 1`

// scanSummary reads a row of latestSummarySQL: ErrNotFound before the ticket's first save.
func scanSummary(row pgx.Row, ticketID string) (*drafts.Summary, error) {
	var sum drafts.Summary
	var bound []byte
	err := row.Scan(&sum.Iteration, &sum.Revision, &sum.Status, &sum.Plan, &sum.Region, &bound, &sum.Confidence, &sum.Struck)
	if err := loadError("draft for ticket "+ticketID, err); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(bound, &sum.Bound); err != nil {
		return nil, fmt.Errorf("draft for ticket %s: stored bound versions: %w", ticketID, err)
	}
	return &sum, nil
}

// LatestIteration returns the newest iteration of a ticket's draft.
// A build that failed after it is shown as the status failed with its reason (see
// withBuildFailure), over the last good iteration or alone.
func (s *Store) LatestIteration(ctx context.Context, ticketID string) (*drafts.Saved, error) {
	r, err := s.loadIteration(ctx, ticketID, 0)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	return s.withBuildFailure(ctx, ticketID, r)
}

// Iteration returns one iteration of a ticket's draft.
func (s *Store) Iteration(ctx context.Context, ticketID string, iteration int) (*drafts.Saved, error) {
	return s.loadIteration(ctx, ticketID, iteration)
}

// loadIteration loads iteration (0: the newest).
func (s *Store) loadIteration(ctx context.Context, ticketID string, iteration int) (*drafts.Saved, error) {
	var r drafts.Saved
	var claims, sentences, bound, evidence, scores, stale, quality []byte
	var edited *string
	err := s.db.QueryRow(ctx, `
		SELECT ticket_id, iteration, revision, status, eligible_at, plan, region, locale, reply, model_reply, abstained,
		       note, claims, sentences, bound, evidence, scores, unsupported, confidence, edited_text, stale_reasons, created_at,
		       rubric, category, reasoning
		FROM drafts WHERE ticket_id = $1 AND ($2 = 0 OR iteration = $2)
		ORDER BY iteration DESC LIMIT 1`, ticketID, iteration).Scan(
		&r.TicketID, &r.Iteration, &r.Revision, &r.Status, &r.EligibleAt, &r.Account.Plan, &r.Account.Region,
		&r.Account.Locale, &r.Reply, &r.ModelReply, &r.Abstained, &r.Note, &claims, &sentences, &bound, &evidence,
		&scores, &r.Unsupported, &r.Confidence, &edited, &stale, &r.CreatedAt, &quality, &r.Category, &r.Reasoning)
	if err := loadError("draft for ticket "+ticketID, err); err != nil {
		return nil, err
	}
	if edited != nil {
		r.EditedText = *edited
	}
	if quality != nil {
		r.Rubric = &rubric.Result{}
		if err := json.Unmarshal(quality, r.Rubric); err != nil {
			return nil, fmt.Errorf("draft for ticket %s: stored rubric scores: %w", ticketID, err)
		}
	}
	for _, f := range []struct {
		raw []byte
		dst any
	}{{claims, &r.Claims}, {sentences, &r.Sentences}, {bound, &r.Bound}, {evidence, &r.Evidence}, {scores, &r.Scores}, {stale, &r.StaleReasons}} {
		if err := json.Unmarshal(f.raw, f.dst); err != nil {
			return nil, fmt.Errorf("draft for ticket %s: stored JSON: %w", ticketID, err)
		}
	}
	return &r, nil
}
