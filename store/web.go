package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/review"
)

// ChunkInfo is what the sidebar shows of a cited chunk: the document's title and version,
// the section, and its text for the verbatim quote's context.
type ChunkInfo struct {
	ID      string
	DocID   string
	Version int
	Status  string
	Title   string
	Heading string
	Text    string
}

// ChunkInfos returns the chunks with these IDs, by ID; unknown IDs are absent.
func (s *Store) ChunkInfos(ctx context.Context, ids []string) (map[string]ChunkInfo, error) {
	rows, err := s.db.Query(ctx, `SELECT c.id, v.doc_id, v.version, v.status, v.title, c.heading, c.text
		FROM chunks c JOIN versions v ON v.id = c.version_id WHERE c.id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ChunkInfo])
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	out := make(map[string]ChunkInfo, len(list))
	for _, c := range list {
		out[c.ID] = c
	}
	return out, nil
}

// CitingDraft is the latest iteration of one ticket's draft that relies on a version.
type CitingDraft struct {
	TicketID  string
	Iteration int
	Status    string
}

// VersionCitations is one policy version with the drafts that cite it.
type VersionCitations struct {
	DocID       string
	Version     int
	Status      string
	Title       string
	Area        string
	EffectiveTo *time.Time
	Drafts      int          // latest iterations citing it
	Open        int          // of which still open (ready or stale)
	ByState     []LabelCount // the citing drafts counted by their state, most first
	// Examples are the open citing drafts, newest first, at most maxCitingExamples: the
	// ones an admin may still act on.
	Examples []CitingDraft
}

// maxCitingExamples bounds the drafts listed per version; the count says how many more.
const maxCitingExamples = 20

// Citations lists every policy version with the drafts whose latest iteration binds to it,
// counted by state, newest version first within a document. For a superseded version the
// open ones are the drafts its replacement has made stale.
func (s *Store) Citations(ctx context.Context) ([]VersionCitations, error) {
	rows, err := s.db.Query(ctx, `
		WITH latest AS (
			SELECT DISTINCT ON (ticket_id) ticket_id, iteration, status, bound, updated_at
			FROM drafts ORDER BY ticket_id, iteration DESC),
		cites AS (
			SELECT b->>'doc_id' AS doc_id, (b->>'version')::int AS version, l.ticket_id, l.iteration, l.status, l.updated_at
			FROM latest l CROSS JOIN LATERAL jsonb_array_elements(l.bound) b),
		states AS (
			SELECT doc_id, version, jsonb_agg(jsonb_build_object('Label', status, 'Count', n) ORDER BY n DESC, status) AS by_state
			FROM (SELECT doc_id, version, status, count(*)::int AS n FROM cites GROUP BY 1, 2, 3) s GROUP BY 1, 2)
		SELECT v.doc_id, v.version, v.status, v.title, v.area, v.effective_to,
		       count(c.ticket_id)::int,
		       (count(c.ticket_id) FILTER (WHERE c.status IN ('ready', 'stale')))::int,
		       coalesce(st.by_state, '[]'),
		       coalesce(jsonb_agg(jsonb_build_object('TicketID', c.ticket_id, 'Iteration', c.iteration, 'Status', c.status)
		                 ORDER BY c.updated_at DESC) FILTER (WHERE c.status IN ('ready', 'stale')), '[]')
		FROM versions v LEFT JOIN cites c ON c.doc_id = v.doc_id AND c.version = v.version
		     LEFT JOIN states st ON st.doc_id = v.doc_id AND st.version = v.version
		GROUP BY v.id, st.by_state ORDER BY v.doc_id, v.version DESC`)
	if err != nil {
		return nil, fmt.Errorf("read citations: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (VersionCitations, error) {
		var v VersionCitations
		if err := row.Scan(&v.DocID, &v.Version, &v.Status, &v.Title, &v.Area, &v.EffectiveTo, &v.Drafts, &v.Open, &v.ByState, &v.Examples); err != nil {
			return v, fmt.Errorf("read citations: %w", err)
		}
		v.Examples = v.Examples[:min(len(v.Examples), maxCitingExamples)]
		return v, nil
	})
}

// AreaWeek is the drafts built in one policy area in one week and how many abstained.
type AreaWeek struct {
	Area      string
	Week      time.Time // Monday 00:00 UTC
	Drafts    int
	Abstained int
}

// Abstentions counts drafts and abstentions per policy area and week since an instant
// (every iteration counts: each was a question the corpus was asked).
func (s *Store) Abstentions(ctx context.Context, since time.Time) ([]AreaWeek, error) {
	rows, err := s.db.Query(ctx, `
		SELECT coalesce(nullif(area, ''), 'unknown'), date_trunc('week', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
		       count(*)::int, (count(*) FILTER (WHERE abstained))::int
		FROM drafts WHERE created_at >= $1 GROUP BY 1, 2 ORDER BY 1, 2`, since)
	if err != nil {
		return nil, fmt.Errorf("read abstentions: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[AreaWeek])
}

// LabelCount is a count under one label (a verdict, a cause).
type LabelCount struct {
	Label string
	Count int
}

// SendCheckCounts counts recorded send-check verdicts since an instant.
func (s *Store) SendCheckCounts(ctx context.Context, since time.Time) ([]LabelCount, error) {
	rows, err := s.db.Query(ctx, `SELECT verdict, count(*)::int FROM send_checks WHERE at >= $1 GROUP BY 1 ORDER BY 2 DESC`, since)
	if err != nil {
		return nil, fmt.Errorf("read send-checks: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[LabelCount])
}

// UncheckedByCause counts the sends allowed without a freshness check since an instant,
// by cause (check_failed; temporal_unreachable in verdicts from before the send hook
// stopped waiting for Temporal; "unknown" for verdicts recorded before causes were).
func (s *Store) UncheckedByCause(ctx context.Context, since time.Time) ([]LabelCount, error) {
	rows, err := s.db.Query(ctx, `SELECT coalesce(nullif(cause, ''), 'unknown'), count(*)::int FROM send_checks
		WHERE verdict = 'unchecked' AND at >= $1 GROUP BY 1 ORDER BY 2 DESC`, since)
	if err != nil {
		return nil, fmt.Errorf("read unchecked sends: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[LabelCount])
}

// QueueRow is one entry of the review dashboard's queue: the queue's item without its
// reply, the policy area of its draft and the reviewer it is assigned to ("" for nobody).
type QueueRow struct {
	review.Item
	Area     string
	Assignee string
}

// ReviewFilter narrows the review dashboard's queue; an empty field does not filter.
type ReviewFilter struct {
	Bucket   string // the intake's triage bucket
	Area     string // the policy area of the draft
	Assignee string // the reviewer it is assigned to
	// Unassigned keeps only the entries nobody is assigned to (Assignee is then ignored).
	Unassigned bool
}

// ReviewPage is the first limit drafts of the review queue that pass f, oldest first,
// without their replies (the dashboard opens one draft at a time), and how many of them
// wait in all; ticket, if set, queued and passing f, is included even beyond the limit, so
// a link to it always opens it.
func (s *Store) ReviewPage(ctx context.Context, limit int, ticket string, f ReviewFilter) ([]QueueRow, int, error) {
	rows, err := s.db.Query(ctx, `
		SELECT q.ticket_id, q.iteration, q.state, q.bucket, q.confidence, q.low_confidence, q.forced_review,
		       q.queued_at, q.review_until, q.decided_by, q.decided_at, q.review_until > now(), coalesce(f.reason, ''), CASE WHEN f.ticket_id IS NULL THEN d.status ELSE 'failed' END,
		       d.area, coalesce(a.assignee, ''), q.agent_id, count(*) OVER ()::int
		FROM review_queue q JOIN drafts d ON d.ticket_id = q.ticket_id AND d.iteration = q.iteration
		     LEFT JOIN build_failures f ON f.ticket_id = q.ticket_id
		     LEFT JOIN review_assignments a ON a.ticket_id = q.ticket_id
		WHERE q.state IN ('waiting', 'approved', 'held')
		  AND ($3 = '' OR q.bucket = $3) AND ($4 = '' OR d.area = $4)
		  AND (CASE WHEN $6 THEN a.ticket_id IS NULL ELSE $5 = '' OR a.assignee = $5 END)
		ORDER BY q.ticket_id = $2 DESC, q.queued_at, q.ticket_id LIMIT $1`, limit, ticket, f.Bucket, f.Area, f.Assignee, f.Unassigned)
	if err != nil {
		return nil, 0, fmt.Errorf("read the review queue: %w", err)
	}
	total := 0
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (QueueRow, error) {
		var it QueueRow
		err := r.Scan(&it.TicketID, &it.Iteration, &it.State, &it.Bucket, &it.Confidence, &it.LowConfidence,
			&it.ForcedReview, &it.QueuedAt, &it.ReviewUntil, &it.DecidedBy, &it.DecidedAt, &it.WindowOpen, &it.BuildError, &it.Status,
			&it.Area, &it.Assignee, &it.AgentID, &total)
		return it, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read the review queue: %w", err)
	}
	return items, total, nil
}

// QueueFacets are the values the review dashboard's filters offer: the buckets and
// areas of the drafts waiting now, and the reviewers assigned to any of them, each sorted.
type QueueFacets struct {
	Buckets, Areas, Assignees []string
}

// ReviewFacets reads the filters' values from the whole queue, not one page of it.
func (s *Store) ReviewFacets(ctx context.Context) (QueueFacets, error) {
	var f QueueFacets
	err := s.db.QueryRow(ctx, `
		SELECT coalesce(array_agg(DISTINCT q.bucket ORDER BY q.bucket) FILTER (WHERE q.bucket <> ''), '{}'),
		       coalesce(array_agg(DISTINCT d.area ORDER BY d.area) FILTER (WHERE d.area <> ''), '{}'),
		       coalesce(array_agg(DISTINCT a.assignee ORDER BY a.assignee) FILTER (WHERE a.assignee IS NOT NULL), '{}')
		FROM review_queue q JOIN drafts d ON d.ticket_id = q.ticket_id AND d.iteration = q.iteration
		     LEFT JOIN review_assignments a ON a.ticket_id = q.ticket_id
		WHERE q.state IN ('waiting', 'approved', 'held')`).Scan(&f.Buckets, &f.Areas, &f.Assignees)
	if err != nil {
		return f, fmt.Errorf("read the review queue's filters: %w", err)
	}
	return f, nil
}
