package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/contradictions"
	"github.com/supportdraft/supportdraft/policy"
)

// ImportResult says what an import changed, by doc_id@version.
type ImportResult struct {
	Added      []string `json:"added"`
	Unchanged  []string `json:"unchanged"`
	Superseded []string `json:"superseded"`
}

// Embedder is what the store needs of an embedding model: the name it records beside every
// vector (only vectors of one embedder are comparable), the dimensions its index is built
// for, and vectors for texts. embedding.Hashing and openai.Embedder satisfy it; the store
// does not depend on either.
type Embedder interface {
	Name() string
	Dims() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Import stores versions in ONE transaction: either every file lands or none does.
// Re-importing identical bytes is a no-op; different bytes under an existing
// doc_id@version are refused. Approving a version supersedes the one before it in the same
// transaction, and the schema's exclusion constraint refuses any overlap that remains, so
// two concurrent approvals of one document cannot both win.
//
// The chunks of versions not stored yet are embedded first, outside the transaction, so a
// slow embedding model never holds the documents' row locks; the transaction only writes.
// A version another import stored in between is compared by content hash as usual, and one
// that disappeared in between is refused, never written without its vectors.
func (s *Store) Import(ctx context.Context, versions []*policy.Version, emb Embedder) (*ImportResult, error) {
	return s.ImportApproval(ctx, versions, emb, Approval{})
}

// Approval is how an import resolves the contradictions it brings (contradictions.Against):
// the other documents it supersedes, and the contradictions the operator accepts, with
// the reason and who gave it.
type Approval struct {
	Supersedes []string                 // doc IDs whose open versions the import retires
	Accepted   []contradictions.Finding // recorded in accepted_contradictions
	Reason     string
	By         string
}

// ImportApproval is Import that also, in the same transaction, retires the open versions
// of every document in a.Supersedes from the moment the first approved version of the
// import takes effect, and records a.Accepted.
func (s *Store) ImportApproval(ctx context.Context, versions []*policy.Version, emb Embedder, a Approval) (*ImportResult, error) {
	if err := s.EnsureVectorIndex(ctx, emb); err != nil {
		return nil, err
	}
	vectors, err := s.embedNew(ctx, versions, emb)
	if err != nil {
		return nil, err
	}
	res := &ImportResult{}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		for _, v := range versions {
			if err := importOne(ctx, tx, v, emb.Name(), vectors[v.Ref()], res); err != nil {
				return fmt.Errorf("%s (%s): %w", v.Ref(), v.Path, err)
			}
		}
		if err := countTerms(ctx, tx, res.Added); err != nil {
			return err
		}
		if err := retireDocuments(ctx, tx, versions, a.Supersedes, res); err != nil {
			return err
		}
		if len(a.Accepted) > 0 {
			return (&Store{db: tx}).AcceptContradictions(ctx, a.Accepted, a.Reason, a.By)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.EnsureScopes(ctx, emb); err != nil {
		return nil, err
	}
	return res, nil
}

// embedNew embeds the chunks of every version that is not stored yet, by doc_id@version.
func (s *Store) embedNew(ctx context.Context, versions []*policy.Version, emb Embedder) (map[string][][]float32, error) {
	refs := make([]string, len(versions))
	for i, v := range versions {
		refs[i] = v.Ref()
	}
	rows, err := s.db.Query(ctx, `SELECT doc_id || '@' || version FROM versions WHERE doc_id || '@' || version = ANY ($1)`, refs)
	if err != nil {
		return nil, err
	}
	stored, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	out := make(map[string][][]float32, len(versions))
	for _, v := range versions {
		if slices.Contains(stored, v.Ref()) || len(v.Chunks) == 0 {
			continue
		}
		texts := make([]string, len(v.Chunks))
		for i, c := range v.Chunks {
			texts[i] = c.Text
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): embed chunks with %s: %w", v.Ref(), v.Path, emb.Name(), err)
		}
		out[v.Ref()] = vecs
	}
	return out, nil
}

func importOne(ctx context.Context, tx pgx.Tx, v *policy.Version, embedder string, vectors [][]float32, res *ImportResult) error {
	// Lock the document row: approvals of one document are serialised.
	if _, err := tx.Exec(ctx, `INSERT INTO documents (doc_id) VALUES ($1) ON CONFLICT DO NOTHING`, v.DocID); err != nil {
		return err
	}
	// Row-level security hides another agent's document: the insert above found its ID
	// taken, and this finds no row.
	err := tx.QueryRow(ctx, `SELECT FROM documents WHERE doc_id = $1 FOR UPDATE`, v.DocID).Scan()
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("document ID %s: %w; rename the document", v.DocID, ErrOtherAgent)
	}
	if err != nil {
		return err
	}
	var existing string
	err = tx.QueryRow(ctx, `SELECT content_hash FROM versions WHERE doc_id = $1 AND version = $2`, v.DocID, v.Version).Scan(&existing)
	switch {
	case err == nil && existing == v.ContentHash:
		res.Unchanged = append(res.Unchanged, v.Ref())
		return nil
	case err == nil:
		return fmt.Errorf("version %d of %s is already stored with different content; a published version never changes: save your edit as version %d", v.Version, v.DocID, v.Version+1)
	case !errors.Is(err, pgx.ErrNoRows):
		return err
	}

	if v.Status != policy.StatusDraft {
		superseded, err := supersede(ctx, tx, v)
		if err != nil {
			return err
		}
		res.Superseded = append(res.Superseded, superseded...)
	}
	var id int64
	err = tx.QueryRow(ctx, `
		INSERT INTO versions (doc_id, version, status, source, title, area, effective_from, effective_to,
		                      approved_at, plans, regions, locale, owner, path, content_hash, body)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16) RETURNING id`,
		v.DocID, v.Version, v.Status, v.Source, v.Title, v.Area, v.EffectiveFrom, v.EffectiveTo,
		v.ApprovedAt, v.Plans, v.Regions, v.Locale, v.Owner, v.Path, v.ContentHash, v.Body).Scan(&id)
	if err != nil {
		return explainVersionError(v, err)
	}
	if err := insertChunks(ctx, tx, id, v.Chunks, embedder, vectors); err != nil {
		return err
	}
	action := "imported"
	if v.Status == policy.StatusApproved {
		action = "approved"
	}
	if _, err := tx.Exec(ctx, `INSERT INTO approvals (doc_id, version, action, detail) VALUES ($1,$2,$3,$4)`,
		v.DocID, v.Version, action, v.Path); err != nil {
		return err
	}
	res.Added = append(res.Added, v.Ref())
	return nil
}

// supersede closes the window of every earlier non-draft version of v's document that is
// still open when v becomes eligible, and marks it superseded.
func supersede(ctx context.Context, tx pgx.Tx, v *policy.Version) ([]string, error) {
	start := *v.EffectiveFrom
	if v.ApprovedAt != nil && v.ApprovedAt.After(start) {
		start = *v.ApprovedAt
	}
	rows, err := tx.Query(ctx, `
		UPDATE versions SET effective_to = $3, status = 'superseded'
		WHERE doc_id = $1 AND version < $2 AND status <> 'draft'
		  AND greatest(effective_from, approved_at) < $3
		  AND (effective_to IS NULL OR effective_to > $3)
		RETURNING version`, v.DocID, v.Version, start)
	if err != nil {
		return nil, err
	}
	olds, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, err
	}
	var refs []string
	for _, old := range olds {
		ref := fmt.Sprintf("%s@%d", v.DocID, old)
		refs = append(refs, ref)
		if _, err := tx.Exec(ctx, `INSERT INTO approvals (doc_id, version, action, detail) VALUES ($1,$2,'superseded',$3)`,
			v.DocID, old, fmt.Sprintf("by version %d from %s", v.Version, start.Format(time.RFC3339))); err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// retireDocuments closes the open non-draft versions of each of docs (other documents the
// import supersedes) where the import's first approved version takes effect.
func retireDocuments(ctx context.Context, tx pgx.Tx, versions []*policy.Version, docs []string, res *ImportResult) error {
	if len(docs) == 0 {
		return nil
	}
	var by *policy.Version
	for _, v := range versions {
		if v.Status == policy.StatusApproved && (by == nil || effectiveStart(v).Before(effectiveStart(by))) {
			by = v
		}
	}
	if by == nil {
		return fmt.Errorf("--supersedes: nothing in this import is approved, so it supersedes nothing")
	}
	start := effectiveStart(by)
	for _, doc := range docs {
		rows, err := tx.Query(ctx, `
			UPDATE versions SET effective_to = $2, status = 'superseded'
			WHERE doc_id = $1 AND status <> 'draft' AND greatest(effective_from, approved_at) < $2
			  AND (effective_to IS NULL OR effective_to > $2)
			RETURNING version`, doc, start)
		if err != nil {
			return err
		}
		olds, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return err
		}
		if len(olds) == 0 {
			return fmt.Errorf("--supersedes %s: no version of %s that took effect before %s is open then (%s); check the document ID, or retire it with a version of its own",
				doc, doc, by.Ref(), start.Format(time.RFC3339))
		}
		for _, old := range olds {
			res.Superseded = append(res.Superseded, fmt.Sprintf("%s@%d", doc, old))
			if _, err := tx.Exec(ctx, `INSERT INTO approvals (doc_id, version, action, detail) VALUES ($1,$2,'superseded',$3)`,
				doc, old, fmt.Sprintf("by %s from %s", by.Ref(), start.Format(time.RFC3339))); err != nil {
				return err
			}
		}
	}
	return nil
}

// effectiveStart is when an approved version becomes eligible: its effective_from, or its
// approval if later.
func effectiveStart(v *policy.Version) time.Time {
	if v.ApprovedAt != nil && v.ApprovedAt.After(*v.EffectiveFrom) {
		return *v.ApprovedAt
	}
	return *v.EffectiveFrom
}

func explainVersionError(v *policy.Version, err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return err
	}
	switch pgErr.ConstraintName {
	case "one_eligible_version_per_doc":
		return fmt.Errorf("its eligibility window overlaps another non-draft version of %s: at most one version of a document may be eligible at any instant; set effective_to on the other version or supersede it with a higher version number", v.DocID)
	case "approved_needs_scope":
		return fmt.Errorf("an approved version needs effective_from, plans and regions")
	case "window_is_ordered":
		return fmt.Errorf("effective_to must be after both effective_from and approved_at")
	}
	return err
}

func insertChunks(ctx context.Context, tx pgx.Tx, versionID int64, chunks []policy.Chunk, embedder string, vectors [][]float32) error {
	if len(chunks) == 0 {
		return nil
	}
	if len(vectors) != len(chunks) {
		return fmt.Errorf("it was removed from the store while this import embedded its chunks; import again")
	}
	batch := &pgx.Batch{}
	for i, c := range chunks {
		batch.Queue(`INSERT INTO chunks (id, version_id, anchor, heading, ord, text, embedder, embedding, fixed, audience, subheadings)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
			c.ID, versionID, c.Anchor, c.Heading, c.Ord, c.Text, embedder, pgvector.NewVector(vectors[i]),
			c.Fixed, cmp.Or(c.Audience, policy.AudienceCustomers), append([]string{}, c.Subheadings...)) // text[] is never null
	}
	return tx.SendBatch(ctx, batch).Close()
}

// Reembed re-embeds every chunk whose stored embedder differs from emb, so a change of
// embedder (model or dimensions) never mixes incomparable vectors. It reports how many
// chunks it rewrote. With nothing to rewrite it runs no DDL at all, so a worker that
// calls it at start runs under the app role (the index is migrate's, VectorIndex); a
// change of embedder builds the new index and partitions, which needs the schema's owner.
// The embedder is the deployment's, so Reembed acts for every agent (AllAgents).
func (s *Store) Reembed(ctx context.Context, emb Embedder, progress func(done, total int)) (int, error) {
	ctx, err := s.AllAgents(ctx)
	if err != nil {
		return 0, err
	}
	rows, err := s.db.Query(ctx, `SELECT id, text FROM chunks WHERE embedder <> $1 ORDER BY id`, emb.Name())
	if err != nil {
		return 0, err
	}
	type stale struct{ ID, Text string }
	todo, err := pgx.CollectRows(rows, pgx.RowToStructByPos[stale])
	if err != nil {
		return 0, err
	}
	if len(todo) == 0 {
		return 0, nil
	}
	if err := s.EnsureVectorIndex(ctx, emb); err != nil {
		return 0, fmt.Errorf("%d chunks need the embedder %s: run `supportdraft policy reembed` as the schema's owner (SUPPORTDRAFT_MIGRATE_URL): %w",
			len(todo), emb.Name(), err)
	}
	const batchSize = 64
	for start := 0; start < len(todo); start += batchSize {
		part := todo[start:min(start+batchSize, len(todo))]
		texts := make([]string, len(part))
		for i, c := range part {
			texts[i] = c.Text
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return start, fmt.Errorf("re-embed with %s: %w", emb.Name(), err)
		}
		batch := &pgx.Batch{}
		for i, c := range part {
			batch.Queue(`UPDATE chunks SET embedder = $2, embedding = $3 WHERE id = $1`, c.ID, emb.Name(), pgvector.NewVector(vecs[i]))
		}
		if err := s.db.SendBatch(ctx, batch).Close(); err != nil {
			return start, err
		}
		if progress != nil {
			progress(start+len(part), len(todo))
		}
	}
	if err := s.EnsureScopes(ctx, emb); err != nil {
		return len(todo), err
	}
	return len(todo), nil
}
