// Package activities holds the draft workflow's steps. Each is a thin method over the
// domain packages (retrieval, llm, drafts, guard, store): it loads what it needs by ID,
// calls one thing, and returns a small result that the workflow history records.
//
// By responsibility: tickets.go loads the ticket revision a build works on; model.go holds
// the steps that may call a model (generate, judge, score); checks.go the deterministic
// ones (span checks, guard, compose); save.go writes drafts and their status; agent.go
// answers the agent's edits and the send hook; review.go keeps the review queue and
// the sent reply.
package activities

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/slackreview"
	"github.com/supportdraft/supportdraft/sources"
	"github.com/supportdraft/supportdraft/store"
)

// DefaultK is how many eligible chunks a drafter sees by default. Retrieval is a recall
// step: the drafter is the one that reads and chooses. With the local hashing embedder the
// expected document falls outside the top 10 noticeably more often than outside the top
// 20, so the drafter gets 20, a few kilobytes of policy text, cheap for a model too.
const DefaultK = 20

// Activities holds the dependencies every step shares.
type Activities struct {
	Store     *store.Store
	Retriever *retrieval.Retriever
	Writer    llm.Writer
	Judge     llm.Judge
	// Calibration maps the judge's raw confidence to the probability that a draft is
	// grounded; the zero Mapping leaves it raw.
	Calibration calibration.Mapping
	Vocab       *guard.Vocabulary
	// Sources is every chunk eligible for an account, as Vocab reads it: what the agent's
	// edits are checked against.
	Sources *sources.Cache
	// K is how many eligible chunks the drafter sees.
	K int
	// HelpDesk receives approved drafts as draft replies (SUPPORTDRAFT_HELPDESK_URL) or
	// internal notes (Zendesk); nil records approvals without delivering them.
	HelpDesk helpdesk.Deliverer
	// Slack receives each queued draft for the reviewers; nil (no SUPPORTDRAFT_SLACK_CHANNEL)
	// posts nothing.
	Slack *slackreview.Poster
	// Rubric scores every draft's reply for quality (SUPPORTDRAFT_RUBRIC; the embedded one
	// by default).
	Rubric *rubric.Rubric
	// Categories are the triage buckets a writer may file a question under.
	Categories []string

	tickets ticketCache
}

// New wires the activities over a store and a provider set.
func New(s *store.Store, p providers.Set, vocab *guard.Vocabulary) *Activities {
	return &Activities{
		Store:       s,
		Retriever:   &retrieval.Retriever{Store: s, Embedder: p.Embedder},
		Writer:      p.Writer,
		Judge:       p.Judge,
		Calibration: calibration.Default(),
		Vocab:       vocab,
		Sources:     sources.New(s, vocab),
		K:           DefaultK,
		Rubric:      rubric.Default(),
		Categories:  inbox.DefaultBuckets().Names(),
	}
}

// Application error types of the activities whose messages are written for an agent to
// read; the workflow shows them on a failed draft (see workflows.failureReason).
const (
	// ErrModelPermanent is a model error retrying cannot fix (bad request, auth).
	ErrModelPermanent = "ModelPermanent"
	// ErrModelFailed is a model error that may pass (rate limit, 5xx, malformed answer).
	ErrModelFailed = "ModelFailed"
	// ErrNotFound is a ticket or draft that does not exist.
	ErrNotFound = "NotFound"
)

// permanentIfMissing turns "not found" into a non-retryable failure: retrying will not make
// a ticket appear.
func permanentIfMissing(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrNotFound, err)
	}
	return err
}

// badSettings marks a part of the agent's settings that does not parse non-retryable:
// the same settings fail the same way on every attempt until someone edits the agent.
func badSettings(what string, err error) error {
	return temporal.NewNonRetryableApplicationError(what+": "+err.Error(), "AgentSettings", err)
}

// modelError marks permanent model failures (4xx other than rate limits) non-retryable so
// Temporal does not spend its attempts on a request that can never succeed. Both kinds
// carry a type the workflow recognises, so a failed draft can say the model was at fault.
func modelError(what string, err error) error {
	msg := fmt.Sprintf("%s: %v", what, err)
	if errors.Is(err, llm.ErrRejected) {
		return temporal.NewNonRetryableApplicationError(msg, ErrModelPermanent, err)
	}
	return temporal.NewApplicationErrorWithCause(msg, ErrModelFailed, err)
}
