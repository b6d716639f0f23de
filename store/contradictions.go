package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/contradictions"
	"github.com/supportdraft/supportdraft/policy"
)

// StoredVersions reads every version in the policy store that is or was policy (approved
// or superseded; drafts never are), with its chunks, as the corpus files would parse: what
// an approval is checked against and what `policy lint` reads.
func (s *Store) StoredVersions(ctx context.Context) ([]*policy.Version, error) {
	return s.versions(ctx, false)
}

// AllVersions reads every version in the policy store, drafts included, with its chunks:
// what `supportdraft trace` searches (retired, draft, every locale).
func (s *Store) AllVersions(ctx context.Context) ([]*policy.Version, error) {
	return s.versions(ctx, true)
}

func (s *Store) versions(ctx context.Context, drafts bool) ([]*policy.Version, error) {
	rows, err := s.db.Query(ctx, `
		SELECT id, doc_id, version, status, source, title, area, effective_from, effective_to, approved_at,
		       plans, regions, locale, owner, path, content_hash
		FROM versions WHERE status <> 'draft' OR $1 ORDER BY doc_id, version`, drafts)
	if err != nil {
		return nil, fmt.Errorf("read stored versions: %w", err)
	}
	byID := map[int64]*policy.Version{}
	var out []*policy.Version
	for rows.Next() {
		var id int64
		v := &policy.Version{}
		if err := rows.Scan(&id, &v.DocID, &v.Version, &v.Status, &v.Source, &v.Title, &v.Area, &v.EffectiveFrom,
			&v.EffectiveTo, &v.ApprovedAt, &v.Plans, &v.Regions, &v.Locale, &v.Owner, &v.Path, &v.ContentHash); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read stored versions: %w", err)
		}
		byID[id] = v
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read stored versions: %w", err)
	}
	chunks, err := s.db.Query(ctx, `
		SELECT c.version_id, c.id, c.anchor, c.heading, c.ord, c.text, c.fixed, c.audience
		FROM chunks c JOIN versions v ON v.id = c.version_id
		WHERE v.status <> 'draft' OR $1 ORDER BY c.version_id, c.ord`, drafts)
	if err != nil {
		return nil, fmt.Errorf("read stored chunks: %w", err)
	}
	for chunks.Next() {
		var id int64
		var c policy.Chunk
		if err := chunks.Scan(&id, &c.ID, &c.Anchor, &c.Heading, &c.Ord, &c.Text, &c.Fixed, &c.Audience); err != nil {
			chunks.Close()
			return nil, fmt.Errorf("read stored chunks: %w", err)
		}
		if v := byID[id]; v != nil {
			v.Chunks = append(v.Chunks, c)
		}
	}
	if err := chunks.Err(); err != nil {
		return nil, fmt.Errorf("read stored chunks: %w", err)
	}
	return out, nil
}

// AcceptedContradiction is a contradiction an operator let an approval through with.
type AcceptedContradiction struct {
	contradictions.Finding
	Reason     string    `json:"reason"`
	AcceptedBy string    `json:"accepted_by"`
	At         time.Time `json:"at"`
}

// AcceptContradictions records the contradictions an approval was let through with, with
// the operator's reason.
func (s *Store) AcceptContradictions(ctx context.Context, findings []contradictions.Finding, reason, by string) error {
	b := &pgx.Batch{}
	for _, f := range findings {
		b.Queue(`INSERT INTO accepted_contradictions (term, a_ref, a_chunk, a_values, b_ref, b_chunk, b_values, reason, accepted_by)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`, f.Term, f.A.Ref, f.A.ChunkID, f.A.Values, f.B.Ref, f.B.ChunkID, f.B.Values, reason, by)
	}
	if err := s.db.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("record accepted contradictions: %w", err)
	}
	return nil
}

// AcceptedContradictions lists the accepted contradictions, newest first, for the admin
// page and `policy contradictions`.
func (s *Store) AcceptedContradictions(ctx context.Context, limit int) ([]AcceptedContradiction, error) {
	rows, err := s.db.Query(ctx, `
		SELECT term, a_ref, a_chunk, a_values, b_ref, b_chunk, b_values, reason, accepted_by, at
		FROM accepted_contradictions ORDER BY at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("read accepted contradictions: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (AcceptedContradiction, error) {
		var a AcceptedContradiction
		err := r.Scan(&a.Term, &a.A.Ref, &a.A.ChunkID, &a.A.Values, &a.B.Ref, &a.B.ChunkID, &a.B.Values, &a.Reason, &a.AcceptedBy, &a.At)
		return a, err
	})
}
