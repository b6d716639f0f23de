package activities

import (
	"context"
	"time"

	"github.com/supportdraft/supportdraft/store"
)

// PurgeInput is the instant before which retention removes text.
type PurgeInput struct {
	Before time.Time `json:"before"`
}

// Purge blanks the customer and agent text written before in.Before and answers with
// the counts per table (store.PurgeBefore): numbers and dates, never text.
func (a *Activities) Purge(ctx context.Context, in PurgeInput) (*store.PurgeReport, error) {
	return a.Store.PurgeBefore(ctx, in.Before, false)
}
