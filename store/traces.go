package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/provenance"
	"github.com/supportdraft/supportdraft/review"
)

// SentReplies reads the replies the help desk reported sending, with their text where it
// is still kept: the text the agent send-checked or edited whose hash is the sent one, or
// the draft's own reply when the sent text was not edited. A reply whose text is gone
// (purged, or never checked here) is left out.
func (s *Store) SentReplies(ctx context.Context) ([]provenance.SentReply, error) {
	rows, err := s.db.Query(ctx, `
		SELECT r.ticket_id, r.iteration, r.sent_at, r.text_sha256, r.edited, coalesce(d.reply, ''),
		       coalesce((SELECT array_agg(a.text ORDER BY a.id DESC) FROM agent_texts a
		                 WHERE a.ticket_id = r.ticket_id AND a.text IS NOT NULL), '{}')
		FROM sent_replies r
		LEFT JOIN drafts d ON d.ticket_id = r.ticket_id AND d.iteration = r.iteration
		ORDER BY r.sent_at DESC, r.ticket_id`)
	if err != nil {
		return nil, fmt.Errorf("read sent replies: %w", err)
	}
	var out []provenance.SentReply
	for rows.Next() {
		var r provenance.SentReply
		var hash, draft string
		var edited bool
		var texts []string
		if err := rows.Scan(&r.TicketID, &r.Iteration, &r.SentAt, &hash, &edited, &draft, &texts); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read sent replies: %w", err)
		}
		for _, t := range texts {
			if review.TextHash(t) == hash {
				r.Text = t
				break
			}
		}
		if r.Text == "" && !edited {
			r.Text = draft
		}
		if r.Text != "" {
			out = append(out, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read sent replies: %w", err)
	}
	return out, nil
}

// TraceRecord is one trace as the admin page lists it.
type TraceRecord struct {
	ID                 int64              `json:"id"`
	Term               string             `json:"term"`
	Plan               string             `json:"plan"`
	Region             string             `json:"region"`
	Locale             string             `json:"locale"`
	JudgedAt           time.Time          `json:"judged_at"`
	Outcome            provenance.Outcome `json:"outcome"`
	Matches            int                `json:"matches"`
	EligibleStatements int                `json:"eligible_statements"`
	SentMatches        int                `json:"sent_matches"`
	FirstRef           string             `json:"first_ref"`
	TracedAt           time.Time          `json:"traced_at"`
}

// RecordTrace keeps a trace's outcome and counts, and returns its ID.
func (s *Store) RecordTrace(ctx context.Context, res *provenance.Result) (int64, error) {
	first := ""
	if len(res.Matches) > 0 {
		first = res.Matches[0].Ref
	}
	var id int64
	err := s.db.QueryRow(ctx, `INSERT INTO traces (term, plan, region, locale, judged_at, outcome, matches, eligible_statements,
		  sent_matches, first_ref) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING id`,
		res.Term, res.Account.Plan, res.Account.Region, res.Account.Locale, res.Account.At, string(res.Outcome),
		len(res.Matches), len(res.EligibleStatements), len(res.Sent), first).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("record trace of %q: %w", res.Term, err)
	}
	return id, nil
}

// Traces lists the newest traces, at most limit.
func (s *Store) Traces(ctx context.Context, limit int) ([]TraceRecord, error) {
	rows, err := s.db.Query(ctx, `SELECT id, term, plan, region, locale, judged_at, outcome, matches, eligible_statements,
		  sent_matches, first_ref, traced_at FROM traces ORDER BY traced_at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("read traces: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[TraceRecord])
}
