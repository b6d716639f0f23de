package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/supportdraft/supportdraft/agent"
)

// Row-level security (migration 0120) shows a connection the rows of the agents listed in
// its setting supportdraft.agent. The store sets it from the context in one place, before
// a pooled connection runs anything (Open's PrepareConn: every query, transaction, batch
// and acquire), so no query filters by agent itself, and one that forgets cannot read
// another agent's rows.

// agentSetting is the setting's name, and also the key under which a pooled connection
// remembers its value (PgConn.CustomData).
const agentSetting = "supportdraft.agent"

// agentList is ctx's agents as the setting lists them, checked: an ID is never a fragment
// of SQL, and a comma in one would name two agents.
func agentList(ctx context.Context) (string, error) {
	ids := agent.IDs(ctx)
	for _, id := range ids {
		if err := agent.CheckID(id); err != nil {
			return "", err
		}
	}
	return strings.Join(ids, ","), nil
}

// actFor sets conn's agents to ctx's, unless conn already acts for exactly them: most
// acquires of a pool that serves one agent cost no round trip.
func actFor(ctx context.Context, conn *pgx.Conn) error {
	want, err := agentList(ctx)
	if err != nil {
		return err
	}
	data := conn.PgConn().CustomData()
	if data[agentSetting] == want {
		return nil
	}
	if _, err := conn.Exec(ctx, `SELECT set_config('`+agentSetting+`', $1, false)`, want); err != nil {
		delete(data, agentSetting)
		return fmt.Errorf("act for agents %s: %w", want, err)
	}
	data[agentSetting] = want
	return nil
}

// agentTx is a store's transaction (OnTx) that acts for the agents of each call's context:
// it sets them for the transaction (set_config(…, true)) before every statement, since
// the transaction's connection was prepared for whoever began it.
type agentTx struct{ tx pgx.Tx }

func (a agentTx) set(ctx context.Context) error {
	want, err := agentList(ctx)
	if err != nil {
		return err
	}
	_, err = a.tx.Exec(ctx, `SELECT set_config('`+agentSetting+`', $1, true)`, want)
	return err
}

func (a agentTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := a.set(ctx); err != nil {
		return pgconn.CommandTag{}, err
	}
	return a.tx.Exec(ctx, sql, args...)
}

func (a agentTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := a.set(ctx); err != nil {
		return nil, err
	}
	return a.tx.Query(ctx, sql, args...)
}

func (a agentTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if err := a.set(ctx); err != nil {
		return errRow{err}
	}
	return a.tx.QueryRow(ctx, sql, args...)
}

func (a agentTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if err := a.set(ctx); err != nil {
		return errBatch{err}
	}
	return a.tx.SendBatch(ctx, b)
}

func (a agentTx) Begin(ctx context.Context) (pgx.Tx, error) {
	if err := a.set(ctx); err != nil {
		return nil, err
	}
	return a.tx.Begin(ctx)
}

// errRow and errBatch answer a statement that was never sent with why.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

type errBatch struct{ err error }

func (b errBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, b.err }
func (b errBatch) Query() (pgx.Rows, error)         { return nil, b.err }
func (b errBatch) QueryRow() pgx.Row                { return errRow{b.err} }
func (b errBatch) Close() error                     { return b.err }
func (b errBatch) Tx() pgx.Tx                       { return nil }

// AllAgents returns ctx acting for every agent of the deployment, read from the agents
// table: for what works across agents (the retention purge, `agent list`, migrations'
// data fixes). Isolation has no wildcard; an agent created after this call is not in it.
func (s *Store) AllAgents(ctx context.Context) (context.Context, error) {
	rows, err := s.db.Query(ctx, `SELECT id FROM agents ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	return agent.With(ctx, ids...), nil
}

// ErrAgentExists is returned by CreateAgent for an ID that is taken.
var ErrAgentExists = errors.New("agent exists")

// CreateAgent stores a new agent.
func (s *Store) CreateAgent(ctx context.Context, a agent.Agent) error {
	settings, err := json.Marshal(a.Settings)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO agents (id, name, addresses, settings) VALUES ($1, $2, $3, $4)`,
		a.ID, a.Name, nonNil(a.Addresses), settings)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return fmt.Errorf("agent %s: %w", a.ID, ErrAgentExists)
	}
	if err != nil {
		return fmt.Errorf("create agent %s: %w", a.ID, err)
	}
	return nil
}

// UpdateAgent replaces the name, addresses and settings of agent a.ID.
func (s *Store) UpdateAgent(ctx context.Context, a agent.Agent) error {
	settings, err := json.Marshal(a.Settings)
	if err != nil {
		return err
	}
	tag, err := s.db.Exec(ctx, `UPDATE agents SET name = $2, addresses = $3, settings = $4 WHERE id = $1`,
		a.ID, a.Name, nonNil(a.Addresses), settings)
	if err != nil {
		return fmt.Errorf("update agent %s: %w", a.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("agent %s: %w", a.ID, ErrNotFound)
	}
	return nil
}

// GetAgent loads agent id.
func (s *Store) GetAgent(ctx context.Context, id string) (agent.Agent, error) {
	rows, err := s.db.Query(ctx, agentColumns+` WHERE id = $1`, id)
	if err != nil {
		return agent.Agent{}, err
	}
	a, err := pgx.CollectExactlyOneRow(rows, scanAgent)
	if errors.Is(err, pgx.ErrNoRows) {
		return agent.Agent{}, fmt.Errorf("agent %s: %w", id, ErrNotFound)
	}
	return a, err
}

// AgentSettings are the settings of the one agent ctx acts for; an agent without a row
// (a scratch schema's) has none.
func (s *Store) AgentSettings(ctx context.Context) (agent.Settings, error) {
	id, err := agent.ID(ctx)
	if err != nil {
		return agent.Settings{}, err
	}
	a, err := s.GetAgent(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return agent.Settings{}, nil
	}
	return a.Settings, err
}

// ListAgents lists every agent of the deployment by ID.
func (s *Store) ListAgents(ctx context.Context) ([]agent.Agent, error) {
	rows, err := s.db.Query(ctx, agentColumns+` ORDER BY id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanAgent)
}

const agentColumns = `SELECT id, name, addresses, settings, created_at FROM agents`

func scanAgent(row pgx.CollectableRow) (agent.Agent, error) {
	var a agent.Agent
	var settings []byte
	if err := row.Scan(&a.ID, &a.Name, &a.Addresses, &settings, &a.CreatedAt); err != nil {
		return a, err
	}
	if err := json.Unmarshal(settings, &a.Settings); err != nil {
		return a, fmt.Errorf("agent %s: settings: %w", a.ID, err)
	}
	return a, nil
}
