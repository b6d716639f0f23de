package activities

import (
	"context"

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
