package activities

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/store"
)

// Halted reads the kill switch from the database: intake and rebuilds check it each time,
// so turning it on takes effect at once, with nothing restarted.
func (a *Activities) Halted(ctx context.Context) (bool, error) {
	return a.Store.Halted(ctx)
}

// Intake holds the funnel's steps and their dependencies: the rules and support addresses
// read at start, the triager, and the one call that starts or joins draft workflows.
// Rules, Buckets and Triager are the deployment's; an agent whose settings give its own
// rules or buckets is screened and triaged with those (forAgent).
type Intake struct {
	Store   *store.Store
	Rules   *inbox.Rules
	Support *inbox.Support
	Triager inbox.Triager
	// Buckets is the triage set the Triager sorts into (nil: the default agent's); Ground
	// names a rescued message's bucket from it.
	Buckets inbox.BucketSet
	// TriagerFor builds a triager over an agent's own buckets (providers.Triager); nil
	// triages every agent's mail with Triager.
	TriagerFor func(inbox.BucketSet) inbox.Triager
	// Retriever reads a message the triager calls not billing against the eligible policy
	// (inbox.Ground); nil leaves the triager's answer as it is.
	Retriever *retrieval.Retriever
	// StartDraft starts or joins a ticket's draft workflow for a surviving message; see
	// DraftStarter.
	StartDraft DraftStarter
}

// DraftStarter starts a ticket's draft workflow, or brings a new revision into the running
// one. It returns once the workflow has accepted the revision, not once the draft is built.
type DraftStarter func(ctx context.Context, d DraftStart) error

// DraftStart is what a surviving message asks of its ticket's draft: the revision, the
// triage bucket and the forced-review reason ("" when none), and the agent's review window
// (0: the deployment's).
type DraftStart struct {
	TicketID     string
	Revision     int
	Bucket       string
	ForcedReview string
	ReviewDelay  time.Duration
	// ReviewThreshold is the agent's own confidence threshold for review (0: the default).
	ReviewThreshold float64
}

// MessageRef names a stored inbound message.
type MessageRef struct {
	MessageID string `json:"message_id"`
}

// Screening is what the layers before triage found, read in one local activity: the kill
// switch, then (when it is off) the rules-and-automated-mail screen and the recipients
// screen over the message loaded once. The workflow takes them in the funnel's order.
type Screening struct {
	Halted     bool             `json:"halted"`
	Filters    inbox.StepResult `json:"filters"`
	Recipients inbox.StepResult `json:"recipients"`
}

// ErrSwitchUnread is the type of Screen's error when the kill switch could not be read:
// the workflow treats the switch as on. Any other Screen error means the message could not
// be loaded, and the workflow lets it through forced to review.
const ErrSwitchUnread = "KillSwitchUnread"

// Screen runs the funnel's layers before triage as one local activity instead of one per
// layer, reading the message once: the stages that stop most automated mail then cost a
// single marker in the workflow task (bench intake's figure for messages stopped before
// triage).
func (a *Intake) Screen(ctx context.Context, ref MessageRef) (*Screening, error) {
	halted, err := a.Store.Halted(ctx)
	if err != nil {
		return nil, temporal.NewApplicationErrorWithCause(err.Error(), ErrSwitchUnread, err)
	}
	if halted {
		return &Screening{Halted: true}, nil
	}
	m, own, err := a.messageFor(ctx, ref)
	if err != nil {
		return nil, err
	}
	return &Screening{Filters: inbox.Filters(m, own.rules), Recipients: inbox.RecipientStep(m, a.Support)}, nil
}

// agentIntake is what one agent's mail is screened and triaged with.
type agentIntake struct {
	rules   *inbox.Rules
	buckets inbox.BucketSet
	triager inbox.Triager
}

// messageFor reads the message ref names, and the intake of the agent ctx acts for.
func (a *Intake) messageFor(ctx context.Context, ref MessageRef) (*inbox.Message, agentIntake, error) {
	m, err := a.Store.Message(ctx, ref.MessageID)
	if err != nil {
		return nil, agentIntake{}, permanentIfMissing(err)
	}
	own, err := a.forAgent(ctx)
	return m, own, err
}

// forAgent returns the rules, buckets and triager of the agent ctx acts for: its own
// where its settings give them (`supportdraft agent create --file`), else the
// deployment's. The agent is read each time, so an update applies to the next message.
func (a *Intake) forAgent(ctx context.Context) (agentIntake, error) {
	out := agentIntake{rules: a.Rules, buckets: a.Buckets, triager: a.Triager}
	settings, err := a.Store.AgentSettings(ctx)
	if err != nil {
		return out, err
	}
	rules, err := settings.IntakeRules()
	if err != nil {
		return out, badSettings("the agent's rules", err)
	}
	if rules != nil {
		out.rules = rules
	}
	if settings.Buckets != nil && a.TriagerFor != nil {
		out.buckets, out.triager = settings.Buckets, a.TriagerFor(settings.Buckets)
	}
	return out, nil
}

// Triage is the fifth layer: the triager's answer, weighed against the eligible policy
// closest to the message when a Retriever is set (inbox.Ground). Its errors go back to the
// workflow, which fails open; a retrieval error leaves the triager's answer as it is.
func (a *Intake) Triage(ctx context.Context, ref MessageRef) (*inbox.Triage, error) {
	m, own, err := a.messageFor(ctx, ref)
	if err != nil {
		return nil, err
	}
	t, err := own.triager.Triage(ctx, m)
	if err != nil || a.Retriever == nil || t == nil || t.Bucket != inbox.BucketNotBilling {
		return t, err
	}
	account := policy.Account{Plan: inbox.UnknownAccount, Region: inbox.UnknownAccount}
	if m.Account != nil {
		account = policy.Account{Plan: m.Account.Plan, Region: m.Account.Region, Locale: m.Account.Locale}
	}
	evidence, err := a.Retriever.Eligible(ctx, m.ReceivedAt, account, []string{inbox.Query(m)}, inbox.TriageK)
	if err != nil {
		activity.GetLogger(ctx).Warn("triage: eligible retrieval failed; the triager's answer stands", "message", m.MessageID, "error", err)
		return t, nil
	}
	return inbox.Ground(t, m, evidence, own.buckets), nil
}

// OpenDraftInput asks for a surviving message's draft.
type OpenDraftInput struct {
	MessageID    string `json:"message_id"`
	Bucket       string `json:"bucket,omitempty"`
	ForcedReview string `json:"forced_review,omitempty"`
}

// DraftOpened is the ticket revision the message became.
type DraftOpened struct {
	TicketID string `json:"ticket_id"`
	Revision int    `json:"revision"`
}

// OpenDraft makes the message the next revision of its thread's ticket and starts or joins
// the ticket's draft workflow with it. Both halves are idempotent (the revision is found
// again by message ID; the start is update-with-start on the ticket's workflow ID), so
// Temporal may retry the step.
func (a *Intake) OpenDraft(ctx context.Context, in OpenDraftInput) (*DraftOpened, error) {
	m, err := a.Store.Message(ctx, in.MessageID)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	t, err := a.Store.AppendToThread(ctx, m)
	if err != nil {
		return nil, err
	}
	settings, err := a.Store.AgentSettings(ctx)
	if err != nil {
		return nil, err
	}
	start := DraftStart{TicketID: t.TicketID, Revision: t.Revision, Bucket: in.Bucket, ForcedReview: in.ForcedReview,
		ReviewDelay: settings.Window(), ReviewThreshold: settings.ReviewThreshold}
	if err := a.StartDraft(ctx, start); err != nil {
		return nil, fmt.Errorf("draft for ticket %s revision %d: %w", t.TicketID, t.Revision, err)
	}
	return &DraftOpened{TicketID: t.TicketID, Revision: t.Revision}, nil
}

// RecordFunnel writes the message's step decisions to funnel_events.
func (a *Intake) RecordFunnel(ctx context.Context, events []inbox.Event) error {
	return a.Store.RecordFunnel(ctx, events)
}
