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
	"go.temporal.io/sdk/converter"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/codec"
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/slackreview"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

func newWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "worker",
		Short: "Run the Temporal worker that builds and checks drafts",
		Long: `worker polls the supportdraft-drafts task queue and runs every DraftWorkflow and its
activities (retrieve, generate, verify spans, judge, guard, compose, score, save,
send-check), and every intake workflow (one per inbound message) with the funnel's steps.
A malformed SUPPORTDRAFT_RULES file is refused here, at start, with its line. Run as many as you like; Temporal spreads the work. Chunks embedded with a
different embedder than the configured one are re-embedded at start.`,
		Args: cobra.NoArgs,
		RunE: withStack(false, func(cmd *cobra.Command, st *stack.Stack, cfg config.Config) error {
			if err := reembed(cmd.Context(), st); err != nil {
				return err
			}
			w, err := startWorker(cmd.Context(), st, cfg)
			if err != nil {
				return err
			}
			defer w.Stop()
			slog.Info("worker running", "task_queue", workflows.TaskQueue, "temporal", cfg.TemporalAddress)
			<-cmd.Context().Done()
			return nil
		}),
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
  POST /v1/inbox/messages               help-desk webhook: inbound mail through the intake funnel
  GET|POST /v1/admin/killswitch         read or set the kill switch {"halted": true|false}
  GET  /v1/drafts/{ticket}/history      the workflow's steps, for QA
  GET  /v1/review/queue                 drafts waiting for a reviewer (window, marks, reply)
  POST /v1/drafts/{ticket}/approve      hand to the help desk when the review window ends
  POST /v1/drafts/{ticket}/pull         back to the agent for editing (window only)
  POST /v1/drafts/{ticket}/kill         kill the draft (window only)
  POST /v1/drafts/{ticket}/sent         help desk: the reply that went out; ends the draft

  GET  /healthz                         the process answers
  GET  /readyz                          Postgres and Temporal answer (503 names which does not)
  GET  /metrics                         Prometheus counters (admin token)`,
		Args: cobra.NoArgs,
		// The API starts drafts and reads the store: it embeds nothing and runs no worker.
		RunE: withStack(true, func(cmd *cobra.Command, st *stack.Stack, cfg config.Config) error {
			return serveAPI(cmd.Context(), st, cfg)
		}),
	}
}

// openStack builds the configured stack. lazyTemporal: connect to Temporal on first use, so
// the API still answers (send-check: "unchecked") while Temporal is down.
// withStack loads the configuration and opens the stack for a long-running command, and
// closes the stack after run; lazyTemporal is openStack's.
func withStack(lazyTemporal bool, run func(cmd *cobra.Command, st *stack.Stack, cfg config.Config) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		cfg, err := loadConfig()
		if err != nil {
			return err
		}
		st, err := openStack(cmd.Context(), cfg, lazyTemporal)
		if err != nil {
			return err
		}
		defer st.Close()
		return run(cmd, st, cfg)
	}
}

func openStack(ctx context.Context, cfg config.Config, lazyTemporal bool) (*stack.Stack, error) {
	vocab, err := vocabulary(cfg.Vocabulary)
	if err != nil {
		return nil, err
	}
	quality, err := rubric.Load(cfg.Rubric)
	if err != nil {
		return nil, usageError{fmt.Errorf("SUPPORTDRAFT_RUBRIC: %w", err)}
	}
	security, err := temporalclient.FromConfig(cfg)
	if err != nil {
		return nil, err
	}
	return stack.Open(ctx, stack.Options{DatabaseURL: cfg.DatabaseURL, TemporalAddress: cfg.TemporalAddress,
		TemporalNamespace: cfg.TemporalNamespace, LazyTemporal: lazyTemporal, Log: slog.Default(), Security: security,
		Providers: providers.FromConfig(cfg), Vocab: vocab, Rubric: quality, HelpDesk: handOff(cfg), Slack: slackPoster(cfg)})
}

// startWorker starts the one worker a process runs (`worker` and `dev`), with the funnel's
// rules and the retention from the configuration. A malformed rules file or support
// address list is refused here, at start, naming the file and line.
func startWorker(ctx context.Context, st *stack.Stack, cfg config.Config) (sdkworker.Worker, error) {
	rules, err := inbox.LoadRules(cfg.Rules)
	if err != nil {
		return nil, usageError{fmt.Errorf("SUPPORTDRAFT_RULES: %w", err)}
	}
	support, err := inbox.NewSupport(cfg.SupportAddresses)
	if err != nil {
		return nil, usageError{fmt.Errorf("SUPPORTDRAFT_SUPPORT_ADDRESSES: %w", err)}
	}
	triagerFor := func(b inbox.BucketSet) inbox.Triager { return providers.Triager(cfg, b) }
	return st.StartWorker(ctx, stack.WorkerOptions{
		Intake: stack.Intake{Rules: rules, Support: support, Triager: triagerFor(nil), TriagerFor: triagerFor,
			Draft: workflows.DraftInput{IdleTimeout: cfg.IdleTimeout, CheckBudget: cfg.CheckBudget,
				ReviewDelay: cfg.ReviewDelay, NotifySlack: cfg.SlackChannel != ""}},
		Retention: cfg.Retention, Namespace: cfg.TemporalNamespace})
}

// reembed brings chunks embedded by another embedder than the configured one up to date:
// the worker's retrieval compares the configured embedder's vectors.
func reembed(ctx context.Context, st *stack.Stack) error {
	n, err := st.Store.Reembed(ctx, st.Providers.Embedder, nil)
	if err != nil {
		return err
	}
	if n > 0 {
		slog.Info("re-embedded chunks for the configured embedder", "chunks", n, "embedder", st.Providers.Embedder.Name())
	}
	return nil
}

// newAuthorizer builds the API's authorizer from the configuration. Without a configured
// session key each process signs sessions with its own random key: sessions then end
// when the process does, and every API replica needs the same key.
func newAuthorizer(st *stack.Stack, cfg config.Config) *auth.Authorizer {
	key := []byte(cfg.SessionKey)
	if len(key) == 0 {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	return auth.NewAuthorizer(st.Store, key, []byte(cfg.WebhookSecret), slog.Default())
}

// serveAPI runs the HTTP API until ctx ends, then shuts it down gracefully. Send-check
// verdicts spooled while Postgres was down are replayed every spoolReplay.
func serveAPI(ctx context.Context, st *stack.Stack, cfg config.Config) error {
	spool, err := api.NewSpool(cfg.SpoolDir)
	if err != nil {
		return err
	}
	h := cfg.Hardening
	keys, err := codec.ParseKeys(h.CodecKeys)
	if err != nil {
		return err
	}
	var payloadCodec converter.PayloadCodec
	if keys != nil {
		payloadCodec = codec.Codec{Keys: keys}
	}
	zd, err := zendeskAPI(cfg)
	if err != nil {
		return err
	}
	own, err := cfg.Mail.Own()
	if err != nil {
		return err
	}
	srv := st.API(api.Config{
		TaskQueue: workflows.TaskQueue, RemoteTriage: providers.Triager(cfg, nil).Remote(), TemporalUI: cfg.TemporalUI, Namespace: cfg.TemporalNamespace,
		IdleTimeout: cfg.IdleTimeout, CheckBudget: cfg.CheckBudget, ReviewDelay: cfg.ReviewDelay,
		Tickets:      ticket.Sets{Plans: h.Plans, Regions: h.Regions, Locales: h.Locales},
		AllowedHosts: h.AllowedHosts, AllowedOrigins: h.AllowedOrigins,
		RateLimit: api.RateLimit{PerMinute: h.RatePerMinute, Burst: h.RateBurst}, Spool: spool, Codec: payloadCodec,
		Zendesk: zd, FrameAncestors: cfg.FrameAncestors,
		OwnAddresses: own, NotifySlack: cfg.SlackChannel != "", Slack: slackConfig(cfg),
	}, slog.Default())
	srv.Auth = newAuthorizer(st, cfg)
	httpSrv := api.NewHTTPServer(cfg.HTTPAddr, srv.Handler())
	errc := make(chan error, 1)
	go func() { errc <- httpSrv.ListenAndServe() }()
	go replaySpool(ctx, spool, st.Store)
	slog.Info("API listening", "addr", "http://"+cfg.HTTPAddr)
	select {
	case err := <-errc:
		return fmt.Errorf("serve API on %s: %w", cfg.HTTPAddr, err)
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

// slackConfig is the interactivity side of the reviewers' Slack app, nil when no signing
// secret is configured.
func slackConfig(cfg config.Config) *api.Slack {
	if cfg.SlackSigningSecret == "" {
		return nil
	}
	s := &api.Slack{SigningSecret: cfg.SlackSigningSecret, Reviewers: cfg.SlackReviewers}
	if cfg.SlackToken != "" {
		s.Poster = slackreview.NewPoster(cfg.SlackToken, cfg.SlackChannel, cfg.SlackAPIURL)
	}
	return s
}
