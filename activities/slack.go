package activities

import (
	"context"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/slackreview"
)

// NotifyInput names a queued draft to put in front of the reviewers.
type NotifyInput struct {
	TicketID     string `json:"ticket_id"`
	Iteration    int    `json:"iteration"`
	Bucket       string `json:"bucket,omitempty"`
	ForcedReview string `json:"forced_review,omitempty"`
}

// NotifyReviewers posts a queued draft to the reviewers' Slack channel: the customer's
// latest message, the draft and its scores, with Approve / Pull back / Kill buttons. The
// texts are read here by ID, so the workflow's history carries none of them. Without a
// configured channel (Slack nil) it does nothing; an agent whose file names its own
// channel has its drafts posted there. It returns the message's Slack timestamp.
func (a *Activities) NotifyReviewers(ctx context.Context, in NotifyInput) (string, error) {
	if a.Slack == nil {
		return "", nil
	}
	d, err := a.Store.Iteration(ctx, in.TicketID, in.Iteration)
	if err != nil {
		return "", permanentIfMissing(err)
	}
	tk, err := a.Store.Ticket(ctx, in.TicketID, d.Revision)
	if err != nil {
		return "", permanentIfMissing(err)
	}
	question := ""
	for _, m := range tk.Messages {
		if m.Author == "customer" {
			question = m.Body
		}
	}
	agentID, err := agent.ID(ctx)
	if err != nil {
		return "", err
	}
	settings, err := a.Store.AgentSettings(ctx)
	if err != nil {
		return "", err
	}
	poster := a.Slack
	if settings.Slack != nil {
		poster = poster.In(settings.Slack.Channel)
	}
	return poster.Post(ctx, slackreview.Draft{AgentID: agentID, TicketID: in.TicketID, Iteration: in.Iteration, Subject: tk.Subject,
		Question: question, Reply: d.Reply, Confidence: d.Confidence, Faithfulness: d.Scores.Faithfulness,
		Coverage: d.Scores.Coverage, Fit: d.Scores.Fit, Bucket: in.Bucket, ForcedReview: in.ForcedReview})
}
