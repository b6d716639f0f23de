package activities

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/review"
)

// SaveReview writes the draft's review queue entry: queued, decided, or left the queue.
func (a *Activities) SaveReview(ctx context.Context, e review.Entry) error {
	return a.Store.SaveReview(ctx, &e)
}

// RecordSent keeps what the help desk reported sending: a hash of the text and whether it
// was edited, never the text.
func (a *Activities) RecordSent(ctx context.Context, r review.SentReply) error {
	return a.Store.RecordSent(ctx, &r)
}

// ErrHalted is the error type of a hand-off the kill switch refused.
const ErrHalted = "Halted"

// HandOffInput names the approved draft iteration to hand to the help desk.
type HandOffInput struct {
	TicketID   string    `json:"ticket_id"`
	Iteration  int       `json:"iteration"`
	ApprovedBy string    `json:"approved_by"`
	ApprovedAt time.Time `json:"approved_at"`
}

// helpDeskFor is where the agent ctx acts for hands its approved drafts: its own help
// desk when its file names one (the signing secret read from the environment variable it
// names, so no secret is stored), else the deployment's; nil records approvals only.
func (a *Activities) helpDeskFor(ctx context.Context) (helpdesk.Deliverer, error) {
	settings, err := a.Store.AgentSettings(ctx)
	if err != nil {
		return nil, err
	}
	h := settings.HelpDesk
	if h == nil {
		return a.HelpDesk, nil
	}
	secret := os.Getenv(h.SecretEnv)
	if len(secret) < 32 {
		err := fmt.Errorf("the agent's help desk: %s must hold its signing secret (at least 32 characters)", h.SecretEnv)
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "AgentSettings", err)
	}
	return helpdesk.New(h.URL, secret), nil
}

// HandOffResult says whether the help desk received the draft. Delivered false with no
// error: no help desk is configured, and the approval is only recorded.
type HandOffResult struct {
	Delivered bool `json:"delivered"`
}

// HandOff posts the approved draft's reply to the help desk as a draft reply. The reply
// is read here by ID, so neither the workflow's input nor its history carries it. A
// refusal (4xx) is not retried; other failures are, by the workflow's retry policy, with
// the same idempotency key.
func (a *Activities) HandOff(ctx context.Context, in HandOffInput) (*HandOffResult, error) {
	desk, err := a.helpDeskFor(ctx)
	if err != nil {
		return nil, err
	}
	if desk == nil {
		return &HandOffResult{}, nil
	}
	// The kill switch holds hand-offs too: a retryable error, so the draft goes out on a
	// later attempt once the switch is lifted, or returns to the review queue with this
	// reason if it stays on past the retries.
	halted, err := a.Store.Halted(ctx)
	if err != nil {
		return nil, err
	}
	if halted {
		return nil, temporal.NewApplicationError("drafting is halted by the kill switch: the hand-off waits until it is lifted", ErrHalted)
	}
	d, err := a.Store.Iteration(ctx, in.TicketID, in.Iteration)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	err = desk.Deliver(ctx, helpdesk.DraftReply{TicketID: in.TicketID, Iteration: in.Iteration, Reply: d.Reply,
		ApprovedBy: in.ApprovedBy, ApprovedAt: in.ApprovedAt, IdempotencyKey: fmt.Sprintf("%s/%d", in.TicketID, in.Iteration)})
	if errors.Is(err, helpdesk.ErrRefused) {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "HelpDeskRefused", err)
	}
	if err != nil {
		return nil, err
	}
	return &HandOffResult{Delivered: true}, nil
}
