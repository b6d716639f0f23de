package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// reviewView is the review dashboard: the queue (or the decided tab), and one draft
// opened beside it with what a reviewer needs to decide (case study: "the queue, the
// original email, the retrieved sources, the judge's scores and its reasoning").
type reviewView struct {
	Tab string // "queue" or "decided"
	// Choice is the choice of agent for a reviewer of several, who also sees each draft's.
	Choice   *agentChoice
	Queue    []queueRow
	Total    int // drafts waiting in all; the page lists the oldest queuePage
	Decided  []store.ReviewDecision
	Open     *openDraft // nil when the queue is empty
	Selected string
}

// queuePage is how many queued drafts the dashboard lists: the oldest, which are the
// ones a reviewer should take first; the decided tab lists as many of the newest.
const queuePage = 100

type queueRow struct {
	review.Item
	Left string // time left in the review window, "" once it closed
}

// openDraft is the selected draft with its email, sources, judgement and strikes, and
// the decisions that can still be taken on it.
type openDraft struct {
	Item    review.Item
	Draft   *drafts.Saved
	Ticket  *ticket.Ticket
	Sources []store.ChunkInfo
	Claims  []drafts.ClaimCheck
	Struck  []guard.SentenceResult
	Raw     float64
	// Warnings say why approving this draft needs a second look (abstained, low
	// confidence, stale); the page then asks for a reason before it approves.
	Warnings []string
	// CanApprove: the entry still waits; CanStop: it waits or is approved and its window is
	// open, so Pull back and Kill can still work.
	CanApprove, CanStop bool
}

func (p *Pages) review(c echo.Context) error {
	ctx := c.Request().Context()
	v := reviewView{Tab: "queue", Selected: c.QueryParam("ticket"), Choice: choiceOf(c, "/app/review")}
	if c.QueryParam("tab") == "decided" {
		v.Tab = "decided"
		var err error
		if v.Decided, err = p.Store.Decided(ctx, queuePage); err != nil {
			return err
		}
		return p.render(c, http.StatusOK, "review", "Review", v)
	}
	items, total, err := p.Store.ReviewPage(ctx, queuePage, v.Selected)
	if err != nil {
		return err
	}
	v.Total = total
	now := time.Now()
	for _, it := range items {
		row := queueRow{Item: it}
		if it.WindowOpen {
			row.Left = it.ReviewUntil.Sub(now).Round(time.Second).String()
		}
		v.Queue = append(v.Queue, row)
		if v.Selected == "" {
			v.Selected = it.TicketID
		}
	}
	for _, it := range items {
		if it.TicketID == v.Selected {
			if v.Open, err = p.openDraft(c, it); err != nil {
				return err
			}
		}
	}
	return p.render(c, http.StatusOK, "review", "Review", v)
}

func (p *Pages) openDraft(c echo.Context, it review.Item) (*openDraft, error) {
	ctx := c.Request().Context()
	r, err := p.Store.Iteration(ctx, it.TicketID, it.Iteration)
	if err != nil {
		return nil, err
	}
	o := &openDraft{Item: it, Draft: r, Claims: r.Claims, Raw: drafts.Confidence(r.Scores, 0),
		CanApprove: it.State == review.Waiting, CanStop: it.WindowOpen && (it.State == review.Waiting || it.State == review.Approved)}
	if r.Abstained {
		o.Warnings = append(o.Warnings, "The draft abstained: no policy in force answers the question.")
	}
	if it.LowConfidence {
		o.Warnings = append(o.Warnings, "Confidence is low: some sentences may not follow from their sources.")
	}
	if r.Status == drafts.StatusStale {
		o.Warnings = append(o.Warnings, "The draft is out of date: the ticket or policy changed since it was written.")
	}
	o.Ticket, err = p.Store.Ticket(ctx, it.TicketID, r.Revision)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	ids := make([]string, 0, len(r.Evidence))
	for _, e := range r.Evidence {
		ids = append(ids, e.ChunkID)
	}
	chunks, err := p.Store.ChunkInfos(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if ch, ok := chunks[id]; ok {
			o.Sources = append(o.Sources, ch)
		}
	}
	for _, s := range r.Sentences {
		if !s.Kept {
			o.Struck = append(o.Struck, s)
		}
	}
	return o, nil
}
