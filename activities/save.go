package activities

import (
	"context"

	"github.com/supportdraft/supportdraft/drafts"
)

// Save stores the draft iteration and its rejections. The workflow keeps the record it
// sent; runs recorded before this answered with its summary, which replay ignores.
func (a *Activities) Save(ctx context.Context, r drafts.Saved, area string) error {
	return a.Store.SaveIteration(ctx, &r, area)
}

// StatusInput changes a draft's status.
type StatusInput struct {
	TicketID  string               `json:"ticket_id"`
	Iteration int                  `json:"iteration"`
	Status    string               `json:"status"`
	Reasons   []drafts.StaleReason `json:"reasons,omitempty"`
}

// MarkStatus records stale, discarded or closed on the saved draft.
func (a *Activities) MarkStatus(ctx context.Context, in StatusInput) error {
	return a.Store.SetDraftStatus(ctx, in.TicketID, in.Iteration, in.Status, in.Reasons)
}
