package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
)

// StaleDraft is an open draft that is stale now, with the reasons the agent will read.
type StaleDraft struct {
	TicketID  string
	Iteration int
	Reasons   []drafts.StaleReason
}

// openDraftsCitingSQL lists the tickets whose newest draft is still open (ready or
// abstained: a stale one already says so) and is bound to one of the documents $1.
const openDraftsCitingSQL = `
	SELECT d.ticket_id FROM drafts d
	WHERE d.iteration = (SELECT max(iteration) FROM drafts WHERE ticket_id = d.ticket_id)
	  AND d.status IN ('ready', 'abstained')
	  AND EXISTS (SELECT 1 FROM jsonb_array_elements(d.bound) b WHERE b->>'doc_id' = ANY($1))
	ORDER BY d.ticket_id`

// StaleDraftsCiting finds the open drafts bound to any of docIDs that are stale at `at`
// (drafts.Staleness against each ticket's latest revision and the versions eligible for
// its account): after an approval, the drafts it supersedes.
func (s *Store) StaleDraftsCiting(ctx context.Context, docIDs []string, at time.Time) ([]StaleDraft, error) {
	rows, err := s.db.Query(ctx, openDraftsCitingSQL, docIDs)
	if err != nil {
		return nil, fmt.Errorf("find open drafts citing %v: %w", docIDs, err)
	}
	tickets, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("find open drafts citing %v: %w", docIDs, err)
	}
	var out []StaleDraft
	for _, id := range tickets {
		sum, err := scanSummary(s.db.QueryRow(ctx, latestSummarySQL, id), id)
		if err != nil {
			return nil, err
		}
		latest, err := s.LatestTicket(ctx, id)
		if err != nil {
			return nil, err
		}
		now, err := s.SendTimeState(ctx, latest, sum.Bound, at)
		if err != nil {
			return nil, err
		}
		if reasons := drafts.Staleness(sum, now); len(reasons) > 0 {
			out = append(out, StaleDraft{TicketID: id, Iteration: sum.Iteration, Reasons: reasons})
		}
	}
	return out, nil
}
