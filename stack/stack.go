// Package stack is the one place that wires supportdraft together: the store, the model
// providers, the guard vocabulary and the Temporal client, and from them the activities,
// the worker and the API server. The dev, worker and api commands, the eval, the benches
// and the tests all build their stack here, each from its own parts: the configured
// database or a scratch schema, the configured providers or the local ones.
package stack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/slackreview"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/worker"
)

// Stack is the parts every supportdraft process is made of.
type Stack struct {
	Store     *store.Store
	Temporal  client.Client
	Providers providers.Set
	Vocab     *guard.Vocabulary
	// Rubric scores every draft's quality; nil is the embedded default.
	Rubric *rubric.Rubric
	// HelpDesk and Slack are where the draft steps hand approved drafts and announce
	// queued ones; nil for either sends nothing there.
	HelpDesk helpdesk.Deliverer
	Slack    *slackreview.Poster
	log      *slog.Logger
	closers  []func()
}

// Options says where the parts come from.
type Options struct {
	DatabaseURL string
	// Scratch, if set, is the prefix of a scratch schema created in DatabaseURL for this
	// stack and dropped by Close: an eval or a bench never touches the live store.
	Scratch string
	// PoolSize caps the store's connections; 0 keeps pgxpool's default.
	PoolSize          int
	TemporalAddress   string
	TemporalNamespace string
	// LazyTemporal connects on first use instead of at Open: the API still answers (send-
	// check "unchecked") while Temporal is down. Others want to fail at start.
	LazyTemporal bool
	// Security is the Temporal client's payload codec, TLS and API key; the zero value is
	// a plain connection with payloads in clear.
	Security temporalclient.Settings
	// Log receives the Temporal client's log; nil discards it.
	Log *slog.Logger
	// Providers draft, judge and embed.
	Providers providers.Set
	// Vocab is the guard's commitment vocabulary; nil is the default one.
	Vocab *guard.Vocabulary
	// Rubric is the draft-quality rubric; nil is the embedded default.
	Rubric *rubric.Rubric
	// HelpDesk receives approved drafts (a help desk's endpoint, Zendesk); nil: none.
	HelpDesk helpdesk.Deliverer
	// Slack posts each queued draft to the reviewers' channel; nil: none.
	Slack *slackreview.Poster
}

// Open builds the parts. Close releases them.
func Open(ctx context.Context, opts Options) (*Stack, error) {
	s := &Stack{Providers: opts.Providers, Vocab: opts.Vocab, Rubric: opts.Rubric, HelpDesk: opts.HelpDesk, Slack: opts.Slack,
		log: opts.Log}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := s.open(ctx, opts); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Stack) open(ctx context.Context, opts Options) error {
	if s.Vocab == nil {
		v, err := guard.DefaultVocabulary()
		if err != nil {
			return err
		}
		s.Vocab = v
	}
	dbURL := opts.DatabaseURL
	if opts.Scratch != "" {
		scratchURL, drop, err := store.Scratch(ctx, opts.DatabaseURL, opts.Scratch)
		if err != nil {
			return err
		}
		s.closers = append(s.closers, func() { _ = drop(context.Background()) })
		dbURL = scratchURL
	}
	st, err := store.Open(ctx, withPoolSize(dbURL, opts.PoolSize))
	if err != nil {
		return err
	}
	s.Store = st
	s.closers = append(s.closers, st.Close)
	if opts.Scratch != "" {
		// A scratch schema holds the default agent only; an eval or replay acting for
		// another needs its row before anything is stored under it.
		for _, id := range agent.IDs(ctx) {
			if err := st.CreateAgent(ctx, agent.Agent{ID: id, Name: id}); err != nil && !errors.Is(err, store.ErrAgentExists) {
				return err
			}
		}
	}
	copts := client.Options{HostPort: opts.TemporalAddress, Namespace: opts.TemporalNamespace, Logger: tlog.NewStructuredLogger(s.log)}
	if err := opts.Security.Apply(&copts); err != nil {
		return err
	}
	if opts.LazyTemporal {
		s.Temporal, err = client.NewLazyClient(copts)
	} else {
		s.Temporal, err = client.Dial(copts)
	}
	if err != nil {
		return fmt.Errorf("connect to Temporal at %s: %w (is it running? scripts/services.sh starts it)", opts.TemporalAddress, err)
	}
	s.closers = append(s.closers, s.Temporal.Close)
	return nil
}

// New is a stack over parts the caller built and closes itself (tests).
func New(st *store.Store, c client.Client, p providers.Set, vocab *guard.Vocabulary) *Stack {
	return &Stack{Store: st, Temporal: c, Providers: p, Vocab: vocab, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// Close releases what Open built, newest first: the Temporal client, the store, then the
// scratch schema.
func (s *Stack) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// Import parses a corpus directory and imports it with the stack's embedder.
func (s *Stack) Import(ctx context.Context, dir string) (*store.ImportResult, []*policy.Version, error) {
	versions, err := policy.ParseDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	res, err := s.Store.Import(ctx, versions, s.Providers.Embedder)
	if err != nil {
		return nil, nil, fmt.Errorf("import corpus %s: %w", dir, err)
	}
	return res, versions, nil
}

// Activities are the draft workflow's steps over the stack's store and providers.
func (s *Stack) Activities() *activities.Activities {
	a := activities.New(s.Store, s.Providers, s.Vocab)
	if s.Rubric != nil {
		a.Rubric = s.Rubric
	}
	a.HelpDesk, a.Slack = s.HelpDesk, s.Slack
	return a
}

// Worker is a worker for taskQueue running acts. It alone says whether the model steps
// run as local activities: they do when the providers are the embedded ones.
func (s *Stack) Worker(taskQueue string, acts *activities.Activities) sdkworker.Worker {
	return worker.New(s.Temporal, taskQueue, acts, !s.Providers.Remote)
}

// API is the HTTP API over the stack's store and Temporal client.
func (s *Stack) API(cfg api.Config, log *slog.Logger) *api.Server {
	return &api.Server{Temporal: s.Temporal, Store: s.Store, Vocab: s.Vocab, Config: cfg, Log: log}
}

// withPoolSize sets pool_max_conns on a database URL; n <= 0 leaves it as it is.
func withPoolSize(databaseURL string, n int) string {
	if n <= 0 {
		return databaseURL
	}
	u, err := url.Parse(databaseURL)
	if err != nil {
		return databaseURL // store.Open reports the bad URL
	}
	q := u.Query()
	q.Set("pool_max_conns", strconv.Itoa(n))
	u.RawQuery = q.Encode()
	return u.String()
}
