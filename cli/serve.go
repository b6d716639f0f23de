package cli

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/codec"
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

func newWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "worker",
		Short: "Run the Temporal worker that builds and checks drafts",
		Long: `worker polls the supportdraft-drafts task queue and runs every DraftWorkflow and its
activities (retrieve, generate, verify spans, judge, guard, compose, score, save,
send-check). Run as many as you like; Temporal spreads the work. Chunks embedded with a
different embedder than the configured one are re-embedded at start.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer st.close()
			if err := st.worker.Start(); err != nil {
				return fmt.Errorf("start worker: %w", err)
			}
			defer st.worker.Stop()
			slog.Info("worker running", "task_queue", "supportdraft-drafts", "temporal", st.cfg.TemporalAddress)
			<-cmd.Context().Done()
			return nil
		},
	}
}

func newAPICmd() *cobra.Command {
	return &cobra.Command{
		Use:   "api",
		Short: "Serve the HTTP API (sidebar, send hook, ticket webhook)",
		Long: `api serves the JSON API on SUPPORTDRAFT_HTTP_ADDR (default 127.0.0.1:8080):
  POST /v1/drafts                       start, or get the draft for a ticket revision
  GET  /v1/drafts/{ticket}              the draft with claims, verdicts, strikes, scores
  POST /v1/drafts/{ticket}/edit         store the agent's text and check it
  POST /v1/drafts/{ticket}/send-check   ok | stale (reasons) | unchecked (warning) | blocked
  POST /v1/drafts/{ticket}/rebuild      a new iteration from current ticket and policy
  POST /v1/drafts/{ticket}/discard      end the draft
  POST /v1/tickets/{ticket}/revisions   help-desk webhook: the customer wrote again
  GET  /v1/drafts/{ticket}/history      the workflow's steps, for QA
  GET  /healthz                         the process answers
  GET  /readyz                          Postgres and Temporal answer (503 names which does not)
  GET  /metrics                         Prometheus counters (admin token)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := open(cmd.Context())
			if err != nil {
				return err
			}
			defer st.close()
			return serveAPI(cmd.Context(), st)
		},
	}
}

// stack is what the worker and the API share: configuration, store, Temporal client and
// a worker (started only by those who run one).
type stack struct {
	cfg      config.Config
	store    *store.Store
	temporal client.Client
	worker   sdkworker.Worker
	embedder embedding.Embedder
	// localModels: the drafter and judge are the embedded ones (providers.Set.Remote is false).
	localModels bool
}

func (s *stack) close() {
	s.temporal.Close()
	s.store.Close()
}

// open connects to Postgres and Temporal and wires the activities. The Temporal client is
// lazy, so the API still answers (send-check: "unchecked") when Temporal is down.
func open(ctx context.Context) (*stack, error) {
	cfg, err := loadConfig()
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	p := providers.FromConfig(cfg)
	if n, err := st.Reembed(ctx, p.Embedder, nil); err != nil {
		st.Close()
		return nil, err
	} else if n > 0 {
		slog.Info("re-embedded chunks for the configured embedder", "chunks", n, "embedder", p.Embedder.Name())
	}
	vocab, err := vocabulary(cfg.Vocabulary)
	if err != nil {
		st.Close()
		return nil, err
	}
	security, err := temporalclient.FromConfig(cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	copts := client.Options{HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace, Logger: tlog.NewStructuredLogger(slog.Default())}
	if err := security.Apply(&copts); err != nil {
		st.Close()
		return nil, err
	}
	c, err := client.NewLazyClient(copts)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("temporal client for %s: %w", cfg.TemporalAddress, err)
	}
	return &stack{cfg: cfg, store: st, temporal: c, worker: worker.New(c, workflows.TaskQueue, activities.New(st, p, vocab)), embedder: p.Embedder,
		localModels: !p.Remote}, nil
}

// newGuard builds the API's auth guard from the configuration. Without a configured
// session key each process signs sessions with its own random key: sessions then end
// when the process does, and every API replica needs the same key.
func newGuard(st *stack) *auth.Guard {
	key := []byte(st.cfg.SessionKey)
	if len(key) == 0 {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	return auth.NewGuard(st.store, key, []byte(st.cfg.WebhookSecret), slog.Default())
}

// serveAPI runs the HTTP API until ctx ends, then shuts it down gracefully. Send-check
// verdicts spooled while Postgres was down are replayed every spoolReplay.
func serveAPI(ctx context.Context, st *stack) error {
	spool, err := api.NewSpool(st.cfg.SpoolDir)
	if err != nil {
		return err
	}
	h := st.cfg.Hardening
	keys, err := codec.ParseKeys(h.CodecKeys)
	if err != nil {
		return err
	}
	var payloadCodec converter.PayloadCodec
	if keys != nil {
		payloadCodec = codec.Codec{Keys: keys}
	}
	srv := &api.Server{Temporal: st.temporal, Store: st.store, Log: slog.Default(), Auth: newGuard(st), Config: api.Config{
		TaskQueue: workflows.TaskQueue, KillSwitch: st.cfg.KillSwitch, TemporalUI: st.cfg.TemporalUI, Namespace: st.cfg.TemporalNamespace,
		IdleTimeout: st.cfg.IdleTimeout, CheckBudget: st.cfg.CheckBudget, LocalModels: st.localModels,
		Tickets:      ticket.Sets{Plans: h.Plans, Regions: h.Regions, Locales: h.Locales},
		AllowedHosts: h.AllowedHosts, AllowedOrigins: h.AllowedOrigins,
		RateLimit: api.RateLimit{PerMinute: h.RatePerMinute, Burst: h.RateBurst}, Spool: spool, Codec: payloadCodec,
	}}
	httpSrv := api.NewHTTPServer(st.cfg.HTTPAddr, srv.Handler())
	errc := make(chan error, 1)
	go func() { errc <- httpSrv.ListenAndServe() }()
	go replaySpool(ctx, spool, st.store)
	slog.Info("API listening", "addr", "http://"+st.cfg.HTTPAddr)
	select {
	case err := <-errc:
		return fmt.Errorf("serve API on %s: %w", st.cfg.HTTPAddr, err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := httpSrv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

const spoolReplay = 30 * time.Second

// replaySpool moves spooled send-check verdicts into the database until ctx ends.
func replaySpool(ctx context.Context, spool *api.Spool, st *store.Store) {
	for {
		if n, err := spool.Replay(ctx, st); n > 0 || err != nil {
			slog.Info("send-check spool replayed", "recorded", n, "waiting", spool.Pending(), "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(spoolReplay):
		}
	}
}
