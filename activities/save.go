package activities

import (
	"context"

	"github.com/supportdraft/supportdraft/drafts"
)

// Save stores the draft of one build and its rejections, and answers its iteration number,
// which the workflow puts on its copy of the record. buildKey names the build; it is the
// same when a build is replayed after a crash, so the replay keeps its row and its number
// (store.SaveBuild).
func (a *Activities) Save(ctx context.Context, r drafts.Saved, area, buildKey string) (int, error) {
	return a.Store.SaveBuild(ctx, &r, area, buildKey)
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

// FailureInput is a failed build: the revision it was for and why, in words an agent may
// read (no internal error text).
type FailureInput struct {
	TicketID string `json:"ticket_id"`
	Revision int    `json:"revision"`
	Reason   string `json:"reason"`
}

// RecordBuildFailure keeps the failure where the API, the sidebar and the review queue
// read the draft, so a failed build shows as failed rather than as a draft still building.
func (a *Activities) RecordBuildFailure(ctx context.Context, in FailureInput) error {
	return a.Store.RecordBuildFailure(ctx, in.TicketID, in.Revision, in.Reason)
}
