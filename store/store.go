// Package store is the only place that speaks SQL. It holds the policy store (versions,
// chunks, approvals), eligible-only retrieval, and the drafts the workflow saves. Errors
// from Postgres are mapped here once, into messages that name the document or ticket.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
	"github.com/pressly/goose/v3"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/migrations"
)

// ErrNotFound is returned when a row asked for by ID does not exist.
var ErrNotFound = errors.New("not found")

// loadError words the outcome of scanning the one row that holds what, so every loader
// names a missing row and a failed read the same way: no row is ErrNotFound, any other
// error is a failed load; nil stays nil.
func loadError(what string, err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("load %s: %w", what, err)
	}
	return nil
}

// Store wraps a pgx pool with pgvector types registered on every connection.
type Store struct {
	pool *pgxpool.Pool // nil for a store over one transaction (OnTx)
	db   DB            // what queries run on: pool, or that transaction
	// scopes saves retrieval a round trip (onScope).
	scopes scopeCache
	// unreachedLimit is MaxUnreachedShare; tests lower it to make every graph build count
	// as poor (export_test.go).
	unreachedLimit float64
	// indexFrom, when positive, stands for IndexFrom: tests of a graph's upkeep, which
	// does not depend on the threshold, lower it to build small graphs (export_test.go).
	indexFrom int
}

// DB is what the store's queries run on: the pool of a store from Open, or the single
// transaction of a store from OnTx.
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	Begin(ctx context.Context) (pgx.Tx, error)
}

// OnTx returns a store whose every query runs in tx, its own transactions as savepoints
// of it. Tests that need no schema of their own run in one and roll it back. What needs
// connections of its own (EnsureScopes, so Import; Ping) fails on it.
func OnTx(tx pgx.Tx) *Store { return &Store{db: agentTx{tx}} }

// errOnTx is what a store over one transaction answers where it needs the pool.
var errOnTx = errors.New("a store over one transaction has no pool")

// PoolSize is how many connections a Store opens at most unless the URL says otherwise.
// A worker and an API replica each hold one pool: several replicas must stay well inside
// Postgres' max_connections (100 by default), next to Temporal's own pools.
const PoolSize = 12

// EFSearch is the HNSW search breadth. Retrieval asks each graph for WalkRows(k) = 75
// rows and keeps the best Candidates(k) = 50 by full similarity; the iterative scan goes
// on past rows the time filter drops. A wider walk did not recover the neighbours a walk
// missed, which were lost to the graph's links (see GraphM and the side list) or to the cut
// of the walk's rows (graphCandidates), and it made the planner price graphs above exact
// scans of mid-sized scopes (docs/decisions/005-retrieval-graphs.md).
const EFSearch = 100

// ConnectTimeout bounds opening one connection when the URL sets no connect_timeout.
const ConnectTimeout = 5 * time.Second

// Open connects to databaseURL and checks the connection.
func Open(ctx context.Context, databaseURL string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	// pgxpool's default is max(4, CPUs) connections: on two cores the API's and the
	// worker's queries of four drafts in flight queued behind each other. pool_max_conns in
	// the URL still wins.
	if !strings.Contains(databaseURL, "pool_max_conns") {
		cfg.MaxConns = PoolSize
	}
	// An unreachable server that drops packets rather than refusing them would hold each
	// request for the operating system's TCP timeout (minutes); bounded, a route fails in
	// seconds with a 503 and the send hook answers unchecked. connect_timeout in the URL
	// still wins.
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = ConnectTimeout
	}
	// Postgres' notices go to the log instead of being dropped: pgvector says in one when
	// a graph outgrew maintenance_work_mem and its build went on, many times slower, on
	// disk (GraphMemory), and a poorly built graph (buildGraph) is read next to it. Those
	// that an IF [NOT] EXISTS skipped its work ("…, skipping"; EnsureVectorIndex on every
	// import) say nothing and are left out.
	cfg.ConnConfig.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		if !strings.HasSuffix(n.Message, ", skipping") {
			slog.Info("postgres notice", "severity", n.Severity, "message", n.Message)
		}
	}
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		if err := pgxvec.RegisterTypes(ctx, conn); err != nil {
			return err
		}
		// When the planner takes the HNSW index for a filtered query, keep scanning until
		// enough rows pass the filters: a short result would drop eligible policy.
		// work_mem lets the exact path sort its filtered rows (vectors included) in memory.
		// Custom plans by default: whether the global index or an exact scan is cheaper
		// depends on how many rows this account's plan and region match, which a generic
		// plan cannot see. Scoped retrieval asks for generic plans per statement (onScope).
		// ef_search: see EFSearch. No parallel workers: the statements here are short, two
		// cores gain nothing from them, and a graph scope's exact fallback (scopes.go)
		// would launch them on every query even though its one-time filter skips it. No
		// JIT, for the same fallback: on a large scope its estimated cost passes
		// jit_above_cost, and compiling the statement would cost more than running it.
		_, err := conn.Exec(ctx, `SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = `+strconv.Itoa(EFSearch)+`;
			SET hnsw.max_scan_tuples = 10000000; SET work_mem = '64MB'; SET plan_cache_mode = force_custom_plan;
			SET max_parallel_workers_per_gather = 0; SET jit = off`)
		return err
	}
	cfg.PrepareConn = func(ctx context.Context, conn *pgx.Conn) (bool, error) {
		if err := actFor(ctx, conn); err != nil {
			// The connection's setting is unknown after a failed set: it is closed.
			return false, err
		}
		return true, nil
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to Postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to Postgres at %s: %w (is it running? `scripts/services.sh` starts it)", cfg.ConnConfig.Host, err)
	}
	return &Store{pool: pool, db: pool, unreachedLimit: MaxUnreachedShare}, nil
}

// Close releases the pool; a store over one transaction leaves it to its owner.
func (s *Store) Close() {
	if s.pool != nil {
		s.pool.Close()
	}
}

// Pool exposes the pool to benchmarks and tests that load data in bulk.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// DB exposes what the store's queries run on, for tests that look at rows directly
// whether the store is over a pool or one transaction.
func (s *Store) DB() DB { return s.db }

// Migrate applies every embedded migration not yet recorded in goose_db_version.
// It needs the vector and btree_gist extensions, which scripts/services.sh creates as
// superuser; the first migration only re-asserts them.
func Migrate(ctx context.Context, databaseURL string) (applied int, err error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return 0, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	// Migrations run under row-level security like everything else (migration 0120): they
	// act for every agent that exists when migrate starts, and for the default agent on a
	// database that has none yet.
	agents, err := migrationAgents(ctx, cfg)
	if err != nil {
		return 0, err
	}
	cfg.RuntimeParams[agentSetting] = agents
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	// Out of order: engineers number their migrations in separate ranges (0004-0009,
	// 0010-0019, …), so a lower number can land after a higher one was applied.
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS, goose.WithAllowOutofOrder(true))
	if err != nil {
		return 0, fmt.Errorf("load migrations: %w", err)
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	return len(results), nil
}

// inTx runs fn in one transaction, committing only if fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.db, fn)
}

// migrationAgents lists every agent of the database at cfg, comma-separated, or the
// default agent when the agents table does not exist yet.
func migrationAgents(ctx context.Context, cfg *pgx.ConnConfig) (string, error) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return "", fmt.Errorf("connect to migrate: %w", err)
	}
	defer conn.Close(ctx)
	var ids []string
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT to_regclass('agents') IS NOT NULL`).Scan(&exists); err != nil {
		return "", fmt.Errorf("look for the agents table: %w", err)
	}
	if exists {
		rows, err := conn.Query(ctx, `SELECT id FROM agents ORDER BY id`)
		if err != nil {
			return "", fmt.Errorf("list agents to migrate: %w", err)
		}
		if ids, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return "", fmt.Errorf("list agents to migrate: %w", err)
		}
	}
	if len(ids) == 0 {
		ids = []string{agent.Default}
	}
	return strings.Join(ids, ","), nil
}
