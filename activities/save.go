package activities

import (
	"context"

	"github.com/supportdraft/supportdraft/drafts"
)

// Save stores the draft of one build and its rejections, and answers its iteration number,
// which the workflow puts on its copy of the record. buildKey names the build; it is the
// same when a build is replayed after a crash, so the replay keeps its row and its number
// (store.SaveBuild). Runs from before build keys (see workflows' versionIterationFromState)
// send none: they numbered r themselves, and a save of the same number replaces the row.
// They ignore the answer, as their histories hold others (nothing, or a summary).
func (a *Activities) Save(ctx context.Context, r drafts.Saved, area, buildKey string) (int, error) {
	if buildKey == "" {
		return r.Iteration, a.Store.SaveIteration(ctx, &r, area)
	}
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

// LastIteration is the highest draft iteration already saved for a ticket (0 if none), so
// a new workflow run for a ticket drafted before numbers its drafts after the old ones.
// Runs of version 1 of versionIterationFromState run it as a regular activity, once,
// before their first build: its answer is then in the history before any Save, and a
// build replayed after a crash between Save and the end of its workflow task gets the same
// number again instead of reading the row it just saved. Newer runs number at Save.
func (a *Activities) LastIteration(ctx context.Context, ticketID string) (int, error) {
	return a.Store.LastIteration(ctx, ticketID)
}
