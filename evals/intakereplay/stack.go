// Package intakereplay runs inbound message sets through the real funnel on a scratch stack,
// isolated from live traffic and from other runs: `intake replay` reports on labelled
// sets with it, and `bench intake` measures it.
package intakereplay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/intake"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/workflows"
)

// StackOptions configures a scratch funnel.
type StackOptions struct {
	DatabaseURL     string
	TemporalAddress string
	Rules           *inbox.Rules
	Support         *inbox.Support
	Triager         inbox.Triager
	// Buckets is the agent's triage set the Triager sorts into (nil: the default agent's).
	Buckets inbox.BucketSet
	// Draft also starts draft workflows for survivors, with the local providers, over
	// Corpus imported into the scratch schema (no corpus: every draft abstains).
	Draft  bool
	Corpus string
}

// Stack is the real funnel — Postgres, the Temporal server, an intake worker — on a
// scratch schema and its own task queue, with workflow IDs scoped to it: nothing it does
// touches live traffic or an earlier run, and the schema is dropped on Close.
type Stack struct {
	intake.Target
	parts  *stack.Stack
	worker sdkworker.Worker
}

// StartStack creates the scratch schema, connects to Temporal and starts the worker. The
// draft steps, when drafting is on, use the local providers.
func StartStack(ctx context.Context, opts StackOptions) (*Stack, error) {
	parts, err := stack.Open(ctx, stack.Options{DatabaseURL: opts.DatabaseURL, Scratch: "intake",
		TemporalAddress: opts.TemporalAddress, Providers: providers.Local(256)})
	if err != nil {
		return nil, err
	}
	if opts.Corpus != "" {
		if _, _, err := parts.Import(ctx, opts.Corpus); err != nil {
			parts.Close()
			return nil, err
		}
	}
	run := randomID()
	st := &Stack{parts: parts, Target: intake.Target{Store: parts.Store, Temporal: parts.Temporal, TaskQueue: "intake-" + run,
		Scope: run, Draft: opts.Draft, RemoteTriage: opts.Triager.Remote()}}
	st.worker = parts.Worker(st.TaskQueue, parts.Activities())
	parts.RegisterIntake(st.worker, st.TaskQueue, stack.Intake{Rules: opts.Rules, Support: opts.Support,
		Triager: opts.Triager, Buckets: opts.Buckets, Draft: workflows.DraftInput{IdleTimeout: time.Hour, CheckBudget: 2 * time.Second}})
	if err := st.worker.Start(); err != nil {
		parts.Close()
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

// Close stops the worker, closes the connections and drops the scratch schema.
func (s *Stack) Close() {
	s.worker.Stop()
	s.parts.Close()
}

func randomID() string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return strings.ToLower(hex.EncodeToString(b))
}
