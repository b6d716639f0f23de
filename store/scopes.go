package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/embedding"
)

// Eligibility-partitioned retrieval (migration 0060). Each scope — one plan × region of one
// embedder — has its own partition of scope_chunks holding only the chunks an account of
// that scope may ever be shown, with its own HNSW index once it is large enough. A query
// therefore searches only what it may return and filters only on time, instead of walking
// a global index past every chunk of other plans and regions. Triggers keep partitions
// equal to their definition on every insert and update of chunks and versions.
//
// A graph is approximate, and each indexed scope carries an exact side list (migration
// 0064) for the two ways it was seen to miss: chunks no walk returns, found by a
// reachability check when the graph is built and whenever chunks join it (checkReach),
// and of the whole graph again once enough have joined (checkJoined), are scored exactly
// by every query; and a fixed sample of reachable chunks, the witnesses, audits each walk,
// which is redone as an exact scan when a witness proves it wrong (graphCandidates). A new
// graph whose check finds too many chunks lost is built again (buildGraph).

// IndexFrom is how many chunks of dims dimensions a scope holds before it gets its own
// HNSW index. Below it every query scans the scope exactly, so its recall is exact by
// construction. A scan reads every vector, so its cost is rows × dimensions: scanDims of
// them scan within the latency target, where a walk saves little and can miss a
// neighbour (`bench retrieval` times both per scope). Wide vectors, whose scans cost more
// per dimension still (pgvector stores them out of line), keep graphs from minIndexFrom.
// A scope that shrinks below it loses its graph (indexScopes). Above it the planner
// chooses between walk and scan from the partition's statistics (docs/retrieval.md).
func IndexFrom(dims int) int { return max(minIndexFrom, scanDims/max(dims, 1)) }

// indexFromFor is IndexFrom(dims), or the store's own threshold where a test set one.
func (s *Store) indexFromFor(dims int) int {
	if s.indexFrom > 0 {
		return s.indexFrom
	}
	return IndexFrom(dims)
}

// scanDims is the rows × dimensions of the largest scope that IndexFrom leaves to an exact
// scan: 7,000 chunks of the local embedder's 256 dimensions. minIndexFrom is the fewest
// chunks that ever get a graph.
const (
	scanDims     = 7000 * 256
	minIndexFrom = 2000
)

// GraphM and GraphEFConstruction are the build parameters of every HNSW graph retrieval
// walks (pgvector's m and ef_construction; a node keeps 2·m neighbours on the ground
// layer). At pgvector's default m = 16, neighbours pruning their full lists left chunks
// that no search finds, a different set in every build; m = 32 makes them rare for a
// somewhat larger index and slower walk, and larger values did no better
// (docs/decisions/005-retrieval-graphs.md). ef_construction is pgvector's minimum for this
// m. The chunks a graph still loses go on its side list.
const (
	GraphM              = 32
	GraphEFConstruction = 2 * GraphM
)

// graphWith is the WITH clause that builds an HNSW index with GraphM and GraphEFConstruction.
//
// A scope's graph (indexScopes) indexes its vectors cast to halfvec, two bytes a dimension,
// and the walks (graphCandidates, reachedSQL) order by the same expression: a walk reads
// half the bytes per node, so large graphs stay in memory. The walk ranks its candidates
// by the half-precision distance but reports each one's full similarity, which the side
// list, the witnesses' audit and the final ranking compare: only the walk's order is
// approximate.
var graphWith = fmt.Sprintf(`WITH (m = %d, ef_construction = %d)`, GraphM, GraphEFConstruction)

// Scope is one partition of eligible retrieval.
type Scope struct {
	ID       int    `json:"id"`
	Agent    string `json:"agent"`
	Plan     string `json:"plan"`
	Region   string `json:"region"`
	Embedder string `json:"embedder"`
	Chunks   int    `json:"chunks"`
	Indexed  bool   `json:"indexed"`
	// Unreached is how many of its chunks no walk of its graph returns: queries score
	// them exactly (the side list, migration 0064).
	Unreached int `json:"unreached"`
	// Builds is how many builds its graph took (buildGraph); 0 without a graph.
	Builds int `json:"graph_builds"`
	// TableBytes and IndexBytes are the partition's size on disk: rows, and its HNSW
	// graph plus primary key.
	TableBytes int64 `json:"table_bytes"`
	IndexBytes int64 `json:"index_bytes"`
}

// EnsureScopes creates the partition of every scope the corpus names for emb — every
// named plan and '*' × every named region and '*' — and gives every scope that has grown
// to IndexFrom chunks its HNSW index and side list (checkReach), drops those of a scope
// that holds fewer (unindexScope), then checks the chunks added to indexed scopes since
// (checkJoined). It is idempotent and cheap when nothing changed; Import calls it after
// every commit. Until it has run for a new plan or region,
// queries of that scope take the unpartitioned path, which is slower but equally correct.
func (s *Store) EnsureScopes(ctx context.Context, emb embedding.Embedder) error {
	if s.pool == nil {
		return errOnTx
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	// A partition is filled in the transaction that creates it, with writers of chunks and
	// versions held off: a chunk committed between the fill and the commit would otherwise
	// reach neither the fill nor the trigger (which cannot see the uncommitted scope).
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `LOCK TABLE versions, chunks IN SHARE MODE`); err != nil {
			return err
		}
		// Each agent has scopes of its own (migration 0120): those of ctx's agents are made,
		// and each holds only its agent's chunks (scope_members).
		rows, err := tx.Query(ctx, `
			INSERT INTO retrieval_scopes (agent_id, plan, region, embedder, dims)
			SELECT a.id, p.name, r.name, $1, $2
			FROM unnest(string_to_array(current_setting('`+agentSetting+`'), ',')) a (id)
			CROSS JOIN LATERAL (SELECT name FROM scope_names WHERE kind = 'plan' AND agent_id = a.id UNION SELECT '*') p
			CROSS JOIN LATERAL (SELECT name FROM scope_names WHERE kind = 'region' AND agent_id = a.id UNION SELECT '*') r
			ON CONFLICT DO NOTHING
			RETURNING id`, emb.Name(), emb.Dims())
		if err != nil {
			return err
		}
		added, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return err
		}
		for _, id := range added {
			if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE TABLE scope_chunks_%[1]d PARTITION OF scope_chunks FOR VALUES IN (%[1]d)`, id)); err != nil {
				return fmt.Errorf("create partition of scope %d: %w", id, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO scope_chunks (scope_id, chunk_id, eligible_window, embedding)
				SELECT scope_id, chunk_id, eligible_window, embedding FROM scope_members WHERE scope_id = $1`, id); err != nil {
				return fmt.Errorf("fill scope %d: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("create retrieval scopes for %s: %w", emb.Name(), err)
	}
	if err := s.indexScopes(ctx, conn.Conn(), emb); err != nil {
		return err
	}
	return s.checkScopes(ctx, conn.Conn(), emb)
}

// indexScopes builds the HNSW index of every scope of emb that has reached IndexFrom, and
// drops the graph of every indexed scope that holds fewer chunks (unindexScope).
func (s *Store) indexScopes(ctx context.Context, conn *pgx.Conn, emb embedding.Embedder) error {
	rows, err := conn.Query(ctx, `
		SELECT id, chunks, indexed FROM (
			SELECT s.id, (SELECT count(*) FROM scope_chunks sc WHERE sc.scope_id = s.id)::int AS chunks, s.indexed
			FROM retrieval_scopes s WHERE s.embedder = $1) s
		WHERE indexed <> (chunks >= $2)`, emb.Name(), s.indexFromFor(emb.Dims()))
	if err != nil {
		return err
	}
	type pending struct {
		ID, Chunks int
		Indexed    bool
	}
	scopes, err := pgx.CollectRows(rows, pgx.RowToStructByPos[pending])
	if err != nil {
		return err
	}
	for _, sc := range scopes {
		if sc.Indexed {
			if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return unindexScope(ctx, tx, sc.ID, s.indexFromFor(emb.Dims())) }); err != nil {
				return fmt.Errorf("drop the graph of scope %d (%d chunks): %w", sc.ID, sc.Chunks, err)
			}
			continue
		}
		// Each graph is built in memory and marked indexed in the same commit. The memory is
		// raised for this transaction only (set_config(…, true) is SET LOCAL), never lowered
		// below what the server grants: an operator's larger maintenance_work_mem stands.
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			// Workers starting together (after migration 0066, say) each run EnsureScopes: the
			// row lock makes one build a scope's graph while the others wait, and then find
			// it built.
			err := tx.QueryRow(ctx, `SELECT FROM retrieval_scopes WHERE id = $1 AND NOT indexed FOR UPDATE`, sc.ID).Scan()
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `
				SELECT set_config('maintenance_work_mem', greatest(setting::bigint, $1)::text || 'kB', true)
				FROM pg_settings WHERE name = 'maintenance_work_mem'`, GraphMemory(sc.Chunks, emb.Dims())>>10); err != nil {
				return err
			}
			builds, err := buildGraph(ctx, tx, sc.ID, sc.Chunks, emb.Dims(), s.unreachedLimit)
			if err != nil {
				return err
			}
			// Imports see indexed when this commits, and from then on the trigger on
			// scope_chunks lists the chunks they add as unchecked. One that wrote to the
			// partition before held off the graph build (its share lock) until it committed,
			// and its chunks are in the graph and its check.
			if _, err := tx.Exec(ctx, `UPDATE retrieval_scopes SET indexed = true, graph_builds = $2, joined_since_check = 0 WHERE id = $1`, sc.ID, builds); err != nil {
				return err
			}
			_, err = tx.Exec(ctx, fmt.Sprintf(`INSERT INTO scope_side (scope_id, chunk_id, kind, eligible_window, embedding)
				SELECT scope_id, chunk_id, 'witness', eligible_window, embedding FROM scope_chunks_%d sc
				WHERE NOT EXISTS (SELECT FROM scope_side s WHERE s.scope_id = sc.scope_id AND s.chunk_id = sc.chunk_id)
				ORDER BY md5(chunk_id) LIMIT $1`, sc.ID), Witnesses)
			if err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `ANALYZE scope_side`)
			return err
		})
		if err != nil {
			return fmt.Errorf("index scope %d (%d chunks): %w", sc.ID, sc.Chunks, err)
		}
	}
	return nil
}

// unindexScope drops scope id's graph and side list if it still holds fewer than from
// chunks (IndexFrom), so that its queries scan it exactly: a store whose scopes got graphs
// from a lower IndexFrom, or a scope that retired versions, would otherwise go on walking
// a scope that a scan answers exactly within the latency target. The partition is locked first, as
// dropping its index would lock it anyway: imports writing to it are waited for and new
// ones held off until the commit, after which the trigger no longer lists their chunks,
// and the scope is counted again under the lock.
func unindexScope(ctx context.Context, tx pgx.Tx, id, from int) error {
	err := tx.QueryRow(ctx, `SELECT FROM retrieval_scopes WHERE id = $1 AND indexed FOR UPDATE`, id).Scan()
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	part := scopePartition(id)
	if _, err := tx.Exec(ctx, `LOCK TABLE `+part+` IN ACCESS EXCLUSIVE MODE`); err != nil {
		return err
	}
	var chunks int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM `+part).Scan(&chunks); err != nil {
		return err
	}
	if chunks >= from {
		return nil
	}
	if _, err := tx.Exec(ctx, fmt.Sprintf(`DROP INDEX IF EXISTS scope_chunks_%d_hnsw`, id)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM scope_side WHERE scope_id = $1`, id); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE retrieval_scopes SET indexed = false, graph_builds = 0, joined_since_check = 0 WHERE id = $1`, id)
	return err
}

// MaxUnreachedShare is the share of a scope's chunks that the check of a new graph may
// find lost before the graph is built again (buildGraph). Lost means unreached with no
// identical twin to stand in for it (see lostSQL). Ordinary builds stay well below it; a
// graph linked far more poorly also misses reachable neighbours the check cannot see,
// which the side list does not repair. pgvector draws each node's layer at random, so a
// second build of the same rows is another graph (docs/retrieval.md).
const MaxUnreachedShare = 0.02

// GraphBuilds is how many times at most a scope's graph is built in one EnsureScopes. The
// last build stands whatever its check found: the side list keeps its unreached chunks
// exact, and Scopes reports the builds it took. A build and check of a large scope is
// long, hence one retry only.
const GraphBuilds = 2

// buildGraph builds scope id's HNSW graph and checks it (checkReach), and drops and builds
// it again while the check finds more than limit of its chunks lost, up to GraphBuilds
// builds. It returns how many builds the graph took.
func buildGraph(ctx context.Context, tx pgx.Tx, id, chunks, dims int, limit float64) (int, error) {
	for build := 1; ; build++ {
		if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE INDEX scope_chunks_%[1]d_hnsw ON scope_chunks_%[1]d
			USING hnsw ((embedding::halfvec(%[2]d)) halfvec_ip_ops) %[3]s`, id, dims, graphWith)); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(ctx, fmt.Sprintf(`ANALYZE scope_chunks_%d`, id)); err != nil {
			return 0, err
		}
		if err := checkReach(ctx, tx, id, dims, true); err != nil {
			return 0, err
		}
		if build == GraphBuilds {
			return build, nil
		}
		var lost int
		if err := tx.QueryRow(ctx, lostSQL(dims, scopePartition(id)), id).Scan(&lost); err != nil {
			return 0, err
		}
		if float64(lost) <= limit*float64(chunks) {
			return build, nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM scope_side WHERE scope_id = $1 AND kind = 'unreached'`, id); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(ctx, fmt.Sprintf(`DROP INDEX scope_chunks_%d_hnsw`, id)); err != nil {
			return 0, err
		}
	}
}

// lostSQL counts the chunks of scope $1 that its check left unreached and whose own walk
// does not return an identical vector either. pgvector keeps up to ten identical vectors
// in one graph node, so of a text repeated more often (boilerplate in many documents) a
// ten-wide walk returns ten and the rest stay unreached however good the graph: they are
// on the side list, but say nothing of how the graph is linked. checkReach's walk
// settings hold.
func lostSQL(dims int, part string) string {
	return `SELECT count(*) FROM scope_side s WHERE s.scope_id = $1 AND s.kind = 'unreached'
		AND NOT EXISTS (SELECT FROM (` + ownWalk(dims, part, "s") + `) f WHERE f.embedding = s.embedding)`
}

// Witnesses is how many reachable chunks of each graph audit its walks (migration 0064).
// A walk that settles among chunks of the wrong topic scores far below the witnesses of
// the right one, so a few per topic suffice; each costs every query of the scope one
// exact distance.
const Witnesses = 64

// checkScopes checks the chunks that reached indexed scopes of emb after their graphs
// were built (scope_side kind 'unchecked'), one scope per transaction. Until then every
// query scores them exactly.
func (s *Store) checkScopes(ctx context.Context, conn *pgx.Conn, emb embedding.Embedder) error {
	rows, err := conn.Query(ctx, `
		SELECT DISTINCT s.scope_id FROM scope_side s JOIN retrieval_scopes r ON r.id = s.scope_id
		WHERE s.kind = 'unchecked' AND r.embedder = $1 ORDER BY 1`, emb.Name())
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return err
	}
	for _, id := range ids {
		var whole bool
		if err := conn.QueryRow(ctx, `
			SELECT r.joined_since_check + `+joinedSinceCheck+`
				> $2::float8 * (SELECT count(*) FROM scope_chunks sc WHERE sc.scope_id = r.id)
			FROM retrieval_scopes r WHERE r.id = $1`, id, RecheckShare).Scan(&whole); err != nil {
			return err
		}
		// pgvector leaves a deleted chunk's node in the graph until VACUUM repairs the lists
		// that link to it, and the repair links the graph anew. Until then a ten-wide walk
		// counts dead nodes among its ten, so the whole graph is checked as VACUUM leaves it.
		// VACUUM cannot run in a transaction.
		if whole {
			if _, err := conn.Exec(ctx, "VACUUM "+scopePartition(id)); err != nil {
				return fmt.Errorf("vacuum the graph of scope %d: %w", id, err)
			}
		}
		if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return checkJoined(ctx, tx, id, emb.Dims(), whole) }); err != nil {
			return fmt.Errorf("check the graph of scope %d: %w", id, err)
		}
	}
	return nil
}

// RecheckShare is the share of a scope's chunks that may join its graph after its last
// whole check before EnsureScopes checks the whole graph again (checkJoined). A chunk that
// joins is checked itself, but pgvector's insert prunes its new neighbours' full lists,
// and VACUUM's repair of a deleted chunk's neighbours links them anew, so an older chunk
// can lose its last link without being looked at. A whole check and its VACUUM cost far
// more than checking the joined chunks alone, so they wait for this much churn
// (docs/retrieval.md, "Checking a graph whole again").
const RecheckShare = 0.05

// joinedSinceCheck counts the chunks that have joined the graph of retrieval_scopes row r
// since its last check: its side list's unchecked rows.
const joinedSinceCheck = `(SELECT count(*) FROM scope_side s WHERE s.scope_id = r.id AND s.kind = 'unchecked')`

// checkJoined checks the chunks that joined scope id's graph since its last check and
// counts them, or, when whole (more than RecheckShare of the scope has joined since the
// last whole check), checks the whole graph and starts the count again.
func checkJoined(ctx context.Context, tx pgx.Tx, id, dims int, whole bool) error {
	// The row lock makes concurrent EnsureScopes check one after the other.
	if _, err := tx.Exec(ctx, `SELECT FROM retrieval_scopes WHERE id = $1 FOR UPDATE`, id); err != nil {
		return err
	}
	if !whole {
		if _, err := tx.Exec(ctx, `UPDATE retrieval_scopes r SET joined_since_check = joined_since_check + `+
			joinedSinceCheck+` WHERE id = $1`, id); err != nil {
			return err
		}
		return checkReach(ctx, tx, id, dims, false)
	}
	// The list is made again from the whole graph, with imports held off the partition
	// until it commits: a chunk they added in between would be listed twice, or not at all.
	// Queries read on meanwhile, with the list as it was.
	if _, err := tx.Exec(ctx, fmt.Sprintf(`LOCK TABLE %s IN SHARE MODE`, scopePartition(id))); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM scope_side WHERE scope_id = $1 AND kind <> 'witness'`, id); err != nil {
		return err
	}
	if err := checkReach(ctx, tx, id, dims, true); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE retrieval_scopes SET joined_since_check = 0 WHERE id = $1`, id)
	return err
}

// ownWalk is the check's walk of partition part for the vector of row alias row: the ten
// nearest chunks in the graph's order. pgvector keeps up to ten identical vectors in one
// graph node, so it returns ten rows.
func ownWalk(dims int, part, row string) string {
	return fmt.Sprintf(`SELECT t.chunk_id, t.embedding FROM %[2]s t
		ORDER BY (t.embedding::halfvec(%[1]d)) <#> (%[3]s.embedding::halfvec(%[1]d)) LIMIT 10`, dims, part, row)
}

// reachedSQL is true when the walk for partition row sc's own vector returns sc: an
// identical twin does not stand in for the chunk.
func reachedSQL(dims int, part string) string {
	return `EXISTS (SELECT FROM (` + ownWalk(dims, part, "sc") + `) f WHERE f.chunk_id = sc.chunk_id)`
}

// checkReach puts on scope id's side list, as unreached, the chunks that a walk for their
// own vector does not return: every chunk of the scope when its graph is new or checked
// whole again (whole; a witness the graph has since lost stays a witness, which every
// query scores exactly too), else those added since the last check; the others added
// since leave the list. The walk is ten wide, narrower than queries walk (EFSearch), to
// keep the check affordable per chunk: a chunk that only a wide walk finds has few links
// to it, and stays on the list too. The chunks no walk returns are exactly what HNSW loses
// outright; a walk that ends in the wrong region of the graph is the witnesses' work.
func checkReach(ctx context.Context, tx pgx.Tx, id, dims int, whole bool) error {
	if _, err := tx.Exec(ctx, `SELECT set_config('hnsw.iterative_scan', 'off', true), set_config('hnsw.ef_search', '10', true)`); err != nil {
		return err
	}
	part := scopePartition(id)
	reached := reachedSQL(dims, part)
	// One statement, so one snapshot: a chunk that an import adds while this runs stays
	// unchecked for the next check, rather than leaving the list unlooked at.
	sql := `WITH checked AS MATERIALIZED (
			SELECT sc.chunk_id, ` + reached + ` AS reached
			FROM scope_side s JOIN ` + part + ` sc ON sc.chunk_id = s.chunk_id AND sc.scope_id = s.scope_id
			WHERE s.scope_id = $1 AND s.kind = 'unchecked'),
		reached AS (
			DELETE FROM scope_side s USING checked c WHERE s.scope_id = $1 AND s.chunk_id = c.chunk_id AND c.reached)
		UPDATE scope_side s SET kind = 'unreached' FROM checked c
		WHERE s.scope_id = $1 AND s.chunk_id = c.chunk_id AND NOT c.reached`
	if whole {
		sql = `INSERT INTO scope_side (scope_id, chunk_id, kind, eligible_window, embedding)
			SELECT sc.scope_id, sc.chunk_id, 'unreached', sc.eligible_window, sc.embedding
			FROM ` + part + ` sc WHERE sc.scope_id = $1 AND NOT ` + reached + `
			ON CONFLICT (scope_id, chunk_id) DO NOTHING`
	}
	_, err := tx.Exec(ctx, sql, id)
	return err
}

// MaxGraphMemory caps what GraphMemory asks for, so that an import never takes more than
// this from the database server for one index build. A larger graph still builds: pgvector
// inserts the vectors that do not fit on disk, many times slower (a server whose
// maintenance_work_mem is set higher than the cap keeps its own setting).
const MaxGraphMemory = 4 << 30

// GraphMemory is the maintenance_work_mem, in bytes, that pgvector needs to build the HNSW
// graph of n vectors of dims dimensions in memory, capped at MaxGraphMemory. Once the graph
// outgrows maintenance_work_mem pgvector goes on inserting on disk, many times slower, so
// a fixed setting is either too small for a large scope or wasted on a small one. Each vector
// takes its value (a halfvec: 2 bytes a dimension and a header) and its neighbour lists,
// about 50 bytes per unit of m, as pgvector's own "no longer fits" notice bore out. A
// quarter is added as headroom.
func GraphMemory(n, dims int) int64 {
	perVector := int64(2*dims + 8 + 50*GraphM)
	return min(int64(n)*perVector*5/4, MaxGraphMemory)
}

// Scopes lists the retrieval scopes of ctx's agents with their sizes, for `bench
// retrieval` and operators.
func (s *Store) Scopes(ctx context.Context) ([]Scope, error) {
	rows, err := s.db.Query(ctx, `
		SELECT s.id, s.agent_id, s.plan, s.region, s.embedder,
		       (SELECT count(*) FROM scope_chunks sc WHERE sc.scope_id = s.id)::int, s.indexed,
		       (SELECT count(*) FROM scope_side x WHERE x.scope_id = s.id AND x.kind = 'unreached')::int, s.graph_builds,
		       pg_table_size(format('scope_chunks_%s', s.id)::regclass),
		       pg_indexes_size(format('scope_chunks_%s', s.id)::regclass)
		FROM retrieval_scopes s ORDER BY s.id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Scope])
}

// scopeRef is what a query needs to know of its account's scope: which partition holds
// what the account may be shown, and whether it has a graph. found is false while the
// scope is not built yet: the query takes the unpartitioned statement.
type scopeRef struct {
	id             int
	indexed, found bool
}

// scopeSQL finds the built scope that holds exactly what an account may be shown with one
// embedder's vectors: $1 embedder, $2 plan, $3 region, $4 dimensions. A plan or region
// that no version names sees what '*' sees.
const scopeSQL = `
SELECT id, indexed FROM retrieval_scopes
WHERE embedder = $1 AND dims = $4
  AND plan = CASE WHEN EXISTS (SELECT FROM scope_names WHERE kind = 'plan' AND name = $2) THEN $2 ELSE '*' END
  AND region = CASE WHEN EXISTS (SELECT FROM scope_names WHERE kind = 'region' AND name = $3) THEN $3 ELSE '*' END`

// queueScopeOf queues q's scope lookup on b; once b has run, looked says whether it
// answered, and into holds the answer.
func queueScopeOf(b *pgx.Batch, q Query, into *scopeRef, looked *bool) {
	b.Queue(scopeSQL, q.Embedder, q.Account.Plan, q.Account.Region, len(q.Vector)).QueryRow(func(row pgx.Row) error {
		*into = scopeRef{}
		err := row.Scan(&into.id, &into.indexed)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return fmt.Errorf("find retrieval scope: %w", err)
		default:
			into.found = true
		}
		*looked = true
		return nil
	})
}

// A scope's candidates are the best N chunks in their window by similarity, N =
// Candidates(k). exactCandidates scores every chunk of the partition: it orders by the
// plain distance and chunk ID, which no index matches, so it is a scan, exact by
// construction. Scopes without a graph use it alone. %[2]s is the partition, %[3]s an
// extra condition, %[5]d is N.
const exactCandidates = `
  SELECT sc.chunk_id, -(sc.embedding <#> $1::vector) AS similarity
  FROM %[2]s sc
  WHERE sc.eligible_window @> $2::timestamptz %[3]s
  ORDER BY sc.embedding <#> $1::vector, sc.chunk_id COLLATE "C"
  LIMIT %[5]d`

// graphCandidates is how a scope with a graph finds them. walk orders by the indexed
// expression, so the planner walks the scope's HNSW graph (pgvector's iterative scan, which
// goes on past the chunks the time filter drops). Its statement runs with a generic plan,
// made once per connection without the query's values (onScope), and two things make the
// plan independent of those values: N is written into the text, and the time filter is
// wrapped in a CASE, which the planner cannot look into and prices at one half. Written
// plainly, with no time to look at, it is priced so selective that the generic plan
// scanned mid-sized scopes exactly rather than walk them.
// side scores the scope's side list exactly (migration 0064): the chunks no walk reaches
// and those not yet checked join the walk's, and the witnesses audit it. Only the side
// list's best N can be among the best N of both, so only they are merged with the walk's,
// which keeps a long list from costing a large merge on every query. A witness in its
// window that the walk did not return although it is more similar than the walk's last
// candidate (or the walk came back short) proves the walk wrong; then, and only then, the
// scope is scanned exactly (exactCandidates behind a one-time filter, which never runs
// otherwise). %[4]d is the scope's ID.
//
// The graph orders its walk by half-precision distance, and candidates are chosen by full
// similarity: reach takes WalkRows(k) rows, 1.5·N, in the walk's order, and walk keeps
// the best N of them by full similarity. Cutting the walk itself at N dropped true
// candidates whose half-precision distance ranked them just below the cut, however wide
// the walk; half as many rows again recovers nearly all of them (see WalkRows).
const graphCandidates = `
reach AS MATERIALIZED (
  SELECT sc.chunk_id, -((sc.embedding::vector(%[1]d)) <#> $1::vector(%[1]d)) AS similarity
  FROM %[2]s sc
  WHERE CASE WHEN sc.eligible_window @> $2::timestamptz THEN true END
  ORDER BY (sc.embedding::halfvec(%[1]d)) <#> $1::halfvec(%[1]d)
  LIMIT %[6]d),
walk AS MATERIALIZED (
  SELECT chunk_id, similarity FROM reach ORDER BY similarity DESC, chunk_id COLLATE "C" LIMIT %[5]d),
side AS MATERIALIZED (
  SELECT s.chunk_id, -((s.embedding::vector(%[1]d)) <#> $1::vector(%[1]d)) AS similarity, s.kind = 'witness' AS witness
  FROM scope_side s
  WHERE s.scope_id = %[4]d AND s.eligible_window @> $2::timestamptz),
audit AS MATERIALIZED (
  SELECT EXISTS (
    SELECT FROM side s
    WHERE s.witness AND s.chunk_id NOT IN (SELECT chunk_id FROM walk)
      AND (s.similarity > (SELECT min(similarity) FROM walk) OR (SELECT count(*) FROM walk) < %[5]d)) AS walk_wrong),
candidates AS MATERIALIZED (
  (SELECT chunk_id, similarity
   FROM (SELECT chunk_id, similarity FROM walk
         UNION
         (SELECT chunk_id, similarity FROM side ORDER BY similarity DESC, chunk_id COLLATE "C" LIMIT %[5]d)) u
   WHERE NOT (SELECT walk_wrong FROM audit)
   ORDER BY similarity DESC, chunk_id COLLATE "C"
   LIMIT %[5]d)
  UNION ALL
  (` + exactCandidates + `))`

// scopedStatement is q on scope sc's partition, whose only filter left is time: the vector
// arm's candidates (exactCandidates, or graphCandidates on a scope with a graph), then the
// lexical arm over the same partition (lexicalArm). Its text names the scope and the
// number of candidates, so that its plan is the same for every query of the scope.
func scopedStatement(q Query, sc scopeRef) (string, []any) {
	candidates := "candidates AS MATERIALIZED (" + scopeSQLf(exactCandidates, q, sc.id, "") + ")"
	if sc.indexed {
		candidates = graphCandidatesOf(q, sc.id)
	}
	from := "FROM chunks c JOIN " + scopePartition(sc.id) + " sc ON sc.chunk_id = c.id WHERE sc.eligible_window @> $2::timestamptz"
	return "WITH " + candidates + lexicalSQL(from, "$3", "$4", q),
		[]any{pgvector.NewVector(q.Vector), q.At, QueryWords(q.Text), QueryPhrases(q.Text)}
}

// scopeSQLf fills in the scoped statement text for q on scope id: dimensions, partition,
// extra condition, scope ID, number of candidates and rows of the graph walk, in that order.
func scopeSQLf(format string, q Query, id int, extra string) string {
	return fmt.Sprintf(format, len(q.Vector), scopePartition(id), extra, id, Candidates(q.K), WalkRows(q.K))
}

// WalkRows is how many rows a scope's graph walk returns for the Candidates(k) best by full
// similarity (graphCandidates): half as many again. One walk of EFSearch collects twice
// the candidates, and the time filter drops some of them; asking for more than that makes
// pgvector's iterative scan walk again (docs/decisions/005-retrieval-graphs.md).
func WalkRows(k int) int { return Candidates(k) * 3 / 2 }

// scopePartition is the quoted name of scope id's partition of scope_chunks.
func scopePartition(id int) string {
	return pgx.Identifier{fmt.Sprintf("scope_chunks_%d", id)}.Sanitize()
}

// graphCandidatesOf is graphCandidates for q on indexed scope id.
func graphCandidatesOf(q Query, id int) string {
	return scopeSQLf(graphCandidates, q, id, "AND (SELECT walk_wrong FROM audit)")
}

// ExactFallback reports whether Eligible answers q with an exact scan of its scope because
// a witness proved the walk wrong (graphCandidates): such a query pays for a scan of the
// whole scope, so `bench retrieval` counts them next to its latencies. It runs the same
// walk, side list and audit as Eligible, at the same search breadth, and asks for the
// audit's verdict alone; PostgreSQL skips the candidates, which nothing reads. A scope
// without a graph, or one not built yet, has no walk to fall back from.
func (s *Store) ExactFallback(ctx context.Context, q Query) (bool, error) {
	wrong, err := onScope(ctx, s, q, func(sc scopeRef) (string, []any) {
		if !sc.indexed {
			return "", nil
		}
		return "WITH " + graphCandidatesOf(q, sc.id) + " SELECT walk_wrong FROM audit", []any{pgvector.NewVector(q.Vector), q.At}
	}, pgx.RowTo[bool])
	if err != nil {
		return false, fmt.Errorf("audit the walk for %s/%s: %w", q.Account.Plan, q.Account.Region, err)
	}
	return len(wrong) == 1 && wrong[0], nil
}

// ScanScope returns the IDs of q's Candidates(q.K) by an exact scan of its scope
// (exactCandidates), the way a scope without a graph finds them, whether or not the scope
// has one. `bench retrieval` times it beside the query on every scope, which tells what a
// scan costs at each scope size: the measure IndexFrom is chosen by. A scope not built yet
// returns nothing.
func (s *Store) ScanScope(ctx context.Context, q Query) ([]string, error) {
	ids, err := onScope(ctx, s, q, func(sc scopeRef) (string, []any) {
		if !sc.found {
			return "", nil
		}
		return "SELECT chunk_id FROM (" + scopeSQLf(exactCandidates, q, sc.id, "") + ") c",
			[]any{pgvector.NewVector(q.Vector), q.At}
	}, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("scan the scope of %s/%s: %w", q.Account.Plan, q.Account.Region, err)
	}
	return ids, nil
}
