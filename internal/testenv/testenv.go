// Package testenv builds the pieces tests share: a scratch store with the sample corpus
// imported, the stack over it with the local providers (wired by package stack, as in
// production), the Temporal dev server, and tickets.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// Embedder is the embedder every test store uses.
var Embedder = embedding.NewHashing(256)

// SampleCorpus is the path of corpus/sample from any test's working directory.
func SampleCorpus() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "corpus", "sample")
}

// Store returns a scratch store with the sample corpus imported.
func Store(t testing.TB) *store.Store {
	t.Helper()
	s, _ := StoreURL(t)
	return s
}

// StoreURL is Store with the scratch schema's database URL, for a process the test starts
// (a worker it kills and restarts) to open the same schema.
func StoreURL(t testing.TB) (*store.Store, string) {
	t.Helper()
	s, url := testdb.New(t)
	ImportSample(t, s)
	return s, url
}

// ImportSample imports the sample corpus into s, for a store a test opens itself.
func ImportSample(t testing.TB, s *store.Store) {
	t.Helper()
	versions, err := policy.ParseDir(SampleCorpus())
	if err != nil {
		t.Fatalf("parse sample corpus: %v", err)
	}
	if _, err := s.Import(context.Background(), versions, Embedder); err != nil {
		t.Fatalf("import sample corpus: %v", err)
	}
}

// Stack wires the real stack over s, as every process does (package stack): the local
// providers with the given writer (nil: the local extractive writer), the default
// vocabulary, and c (nil in tests that run no worker or API).
func Stack(t testing.TB, s *store.Store, c client.Client, writer llm.Writer) *stack.Stack {
	t.Helper()
	vocab, err := guard.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	p := providers.Local(256)
	p.Embedder = Embedder
	if writer != nil {
		p.Writer = writer
	}
	return stack.New(s, c, p, vocab)
}

// ChildStack is the stack of a worker that a test starts as a child process (the test
// binary re-run, with no testing.TB): the store at databaseURL, Temporal at
// TEMPORAL_ADDRESS, the local providers with the test embedder. done closes both.
func ChildStack(ctx context.Context, databaseURL string) (s *stack.Stack, done func(), err error) {
	st, err := store.Open(ctx, databaseURL)
	if err != nil {
		return nil, nil, err
	}
	c, err := client.Dial(client.Options{HostPort: os.Getenv("TEMPORAL_ADDRESS"), Logger: QuietLogger(),
		ContextPropagators: []workflow.ContextPropagator{temporalclient.AgentPropagator{}}})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	vocab, err := guard.DefaultVocabulary()
	if err != nil {
		c.Close()
		st.Close()
		return nil, nil, err
	}
	p := providers.Local(256)
	p.Embedder = Embedder
	return stack.New(st, c, p, vocab), func() { c.Close(); st.Close() }, nil
}

// StartWorker runs st's worker with acts (nil: st's own activities) on a task queue of its
// own, named from prefix, until the test ends, and returns the queue.
func StartWorker(t testing.TB, st *stack.Stack, prefix string, acts *activities.Activities) string {
	t.Helper()
	tq := Unique(prefix)
	if acts == nil {
		acts = st.Activities()
	}
	startWorker(t, st, tq, acts, nil)
	return tq
}

// StartFunnelWorker is StartWorker running the intake workflow beside the drafts, with
// st's activities: the funnel's activities are intake, whose drafts start on the same
// queue with an hour's idle timeout.
func StartFunnelWorker(t testing.TB, st *stack.Stack, prefix string, intake *activities.Intake) string {
	t.Helper()
	tq := Unique(prefix)
	intake.StartDraft = workflows.DraftStarter(st.Temporal, tq, workflows.DraftInput{IdleTimeout: time.Hour, CheckBudget: 30 * time.Second})
	startWorker(t, st, tq, st.Activities(), intake)
	return tq
}

func startWorker(t testing.TB, st *stack.Stack, tq string, acts *activities.Activities, intake *activities.Intake) {
	t.Helper()
	w := st.Worker(tq, acts)
	if intake != nil {
		worker.RegisterIntake(w, intake)
	}
	if err := w.Start(); err != nil {
		t.Fatalf("start worker on %s: %v", tq, err)
	}
	t.Cleanup(w.Stop)
}

// Activities wires the real activities over s with the local judge and the given writer
// (nil: the local extractive writer).
func Activities(t testing.TB, s *store.Store, writer llm.Writer) *activities.Activities {
	t.Helper()
	return Stack(t, s, nil, writer).Activities()
}

// Ticket builds a one-message ticket revision.
func Ticket(id string, revision int, plan, region string, at time.Time, body string) *ticket.Ticket {
	return &ticket.Ticket{
		TicketID: id, Revision: revision, UpdatedAt: at, Channel: "email", Subject: "Billing question",
		Account:  ticket.Account{ID: "A-77", Plan: plan, Region: region, Locale: "en"},
		Messages: []ticket.Message{{Author: "customer", At: at, Body: body}},
	}
}

// SaveTicket stores t or fails the test.
func SaveTicket(t testing.TB, s *store.Store, tk *ticket.Ticket) {
	t.Helper()
	if err := s.SaveTicket(context.Background(), tk); err != nil {
		t.Fatal(err)
	}
}

// Scripted is a writer that answers with a fixed answer: a model that lies on cue.
type Scripted struct{ Reply llm.Answer }

// Write returns the scripted answer.
func (s Scripted) Write(context.Context, llm.Request) (*llm.Answer, error) {
	d := s.Reply
	return &d, nil
}

// QuietLogger logs only warnings and errors, so test output shows what matters.
func QuietLogger() log.Logger {
	return log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

// Temporal connects to the dev server that scripts/services.sh starts, or fails the test:
// CI must never pass without the real server.
func Temporal(t testing.TB) client.Client {
	t.Helper()
	addr := os.Getenv("TEMPORAL_ADDRESS")
	if addr == "" {
		t.Fatal("TEMPORAL_ADDRESS is not set: run the tests with scripts/test.sh, which starts the Temporal dev server and sets it")
	}
	// The agent propagator, as every process's client has (temporalclient.Settings.Apply).
	c, err := client.Dial(client.Options{HostPort: addr, Logger: QuietLogger(),
		ContextPropagators: []workflow.ContextPropagator{temporalclient.AgentPropagator{}}})
	if err != nil {
		t.Fatalf("connect to Temporal at %s: %v", addr, err)
	}
	t.Cleanup(c.Close)
	return c
}

// Unique returns prefix plus a random suffix: workflow IDs and task queues are shared by
// every test run on the same dev server.
func Unique(prefix string) string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}
