package intake

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// StackOptions configures a scratch funnel.
type StackOptions struct {
	DatabaseURL     string
	TemporalAddress string
	Rules           *inbox.Rules
	Support         *inbox.Support
	Triager         inbox.Triager
	// Draft also starts draft workflows for survivors (local providers, over the scratch
	// schema's empty policy store unless the caller imports a corpus into Stack.Store).
	Draft bool
}

// Stack is the real funnel — Postgres, the Temporal server, an intake worker — on a
// scratch schema and its own task queue, with workflow IDs scoped to it: nothing it does
// touches live traffic or an earlier run, and the schema is dropped on Close.
type Stack struct {
	Target
	worker sdkworker.Worker
	drop   func(context.Context) error
}

// StartStack creates the scratch schema, connects to Temporal and starts the worker.
func StartStack(ctx context.Context, opts StackOptions) (_ *Stack, err error) {
	run := randomID()
	scratchURL, drop, err := store.Scratch(ctx, opts.DatabaseURL, "intake")
	if err != nil {
		return nil, err
	}
	st := &Stack{drop: drop}
	defer func() {
		if err != nil {
			st.Close()
		}
	}()
	if st.Store, err = store.Open(ctx, scratchURL); err != nil {
		return nil, err
	}
	quiet := tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if st.Temporal, err = client.Dial(client.Options{HostPort: opts.TemporalAddress, Logger: quiet}); err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w", opts.TemporalAddress, err)
	}
	st.TaskQueue, st.Scope, st.Draft, st.RemoteTriage = "intake-"+run, run, opts.Draft, opts.Triager.Remote()
	p := providers.Local(256)
	vocab, err := guard.DefaultVocabulary()
	if err != nil {
		return nil, err
	}
	st.worker = worker.New(st.Temporal, st.TaskQueue, activities.New(st.Store, p, vocab))
	template := workflows.DraftInput{IdleTimeout: time.Hour, CheckBudget: 2 * time.Second, LocalModels: true}
	worker.RegisterIntake(st.worker, &activities.Intake{Store: st.Store, Rules: opts.Rules, Support: opts.Support,
		Triager: opts.Triager, StartDraft: workflows.DraftStarter(st.Temporal, st.TaskQueue, template)})
	if err := st.worker.Start(); err != nil {
		return nil, fmt.Errorf("start intake worker: %w", err)
	}
	return st, nil
}

// Deliver runs one message through the scratch funnel. Its thread ID, which becomes the
// ticket ID and so the draft workflow's ID, is prefixed with the run's scope: the
// scratch run's drafts never meet live ones, or an earlier run's, on the shared server.
func (s *Stack) Deliver(ctx context.Context, m *inbox.Message) (*workflows.IntakeResult, error) {
	scoped := *m
	scoped.ThreadID = s.Scope + "/" + m.ThreadID
	return s.Target.Deliver(ctx, &scoped)
}

// Close stops the worker and drops the scratch schema.
func (s *Stack) Close() {
	if s.worker != nil {
		s.worker.Stop()
	}
	if s.Temporal != nil {
		s.Temporal.Close()
	}
	if s.Store != nil {
		s.Store.Close()
	}
	_ = s.drop(context.Background())
}

func randomID() string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return strings.ToLower(hex.EncodeToString(b))
}
