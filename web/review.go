package web

import (
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"

	"github.com/supportdraft/supportdraft/auth"
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
	Total    int // drafts waiting in all that pass the filter; the page lists the oldest queuePage
	Decided  []store.ReviewDecision
	Open     *openDraft // nil when the queue is empty
	Selected string
	// Filter is the queue's filter as the page's form shows it; Assigned is "me", "none"
	// or "" for anyone. Facets are the values its lists offer.
	Filter   store.ReviewFilter
	Assigned string
	Facets   store.QueueFacets
	Filtered bool
	Me       string // the signed-in reviewer's name, as assignments name reviewers
}

// queuePage is how many queued drafts the dashboard lists: the oldest, which are the
// ones a reviewer should take first; the decided tab lists as many of the newest.
const queuePage = 100

type queueRow struct {
	store.QueueRow
	Left string // time left in the review window, "" once it closed
	Link string // the page with this draft open, under the same filter
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
	// Assignee is who has the review ("" for nobody); Reviewers are the names it can be
	// given to; Notes are the ticket's decisions and assignments, oldest first.
	Assignee  string
	Reviewers []string
	Notes     []store.ReviewNote
}

func (p *Pages) review(c echo.Context) error {
	ctx := c.Request().Context()
	who, _ := auth.From(c)
	v := reviewView{Tab: "queue", Selected: c.QueryParam("ticket"), Me: who.Name, Choice: choiceOf(c, "/app/review")}
	if c.QueryParam("tab") == "decided" {
		v.Tab = "decided"
		var err error
		if v.Decided, err = p.Store.Decided(ctx, queuePage); err != nil {
			return err
		}
		return p.render(c, http.StatusOK, "review", "Review", v)
	}
	q := url.Values{}
	v.Filter = store.ReviewFilter{Bucket: c.QueryParam("bucket"), Area: c.QueryParam("area")}
	switch v.Assigned = c.QueryParam("assigned"); v.Assigned {
	case "me":
		v.Filter.Assignee = who.Name
	case "none":
		v.Filter.Unassigned = true
	default:
		v.Assigned = ""
	}
	for k, val := range map[string]string{"bucket": v.Filter.Bucket, "area": v.Filter.Area, "assigned": v.Assigned} {
		if val != "" {
			q.Set(k, val)
			v.Filtered = true
		}
	}
	if v.Choice != nil && v.Choice.Current != "" {
		q.Set(auth.AgentParam, v.Choice.Current) // the rows keep the chosen agent
	}
	var items []store.QueueRow
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		items, v.Total, err = p.Store.ReviewPage(gctx, queuePage, v.Selected, v.Filter)
		return err
	})
	g.Go(func() (err error) { v.Facets, err = p.Store.ReviewFacets(gctx); return err })
	if err := g.Wait(); err != nil {
		return err
	}
	// A filter the queue no longer has values for still shows as chosen.
	v.Facets.Buckets = withValue(v.Facets.Buckets, v.Filter.Bucket)
	v.Facets.Areas = withValue(v.Facets.Areas, v.Filter.Area)
	now := time.Now()
	for _, it := range items {
		q.Set("ticket", it.TicketID)
		row := queueRow{QueueRow: it, Link: "/app/review?" + q.Encode()}
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
			var err error
			if v.Open, err = p.openDraft(c, it); err != nil {
				return err
			}
		}
	}
	return p.render(c, http.StatusOK, "review", "Review", v)
}

func (p *Pages) openDraft(c echo.Context, row store.QueueRow) (*openDraft, error) {
	ctx := c.Request().Context()
	it := row.Item
	o := &openDraft{Item: it, Assignee: row.Assignee,
		CanApprove: it.State == review.Waiting, CanStop: it.WindowOpen && (it.State == review.Waiting || it.State == review.Approved)}
	// The draft, the reviewers and the notes do not depend on each other: read at once.
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { o.Draft, err = p.Store.Iteration(gctx, it.TicketID, it.Iteration); return err })
	g.Go(func() (err error) {
		o.Reviewers, err = p.Store.TokenNames(gctx, string(auth.Reviewer), string(auth.Admin))
		return err
	})
	g.Go(func() (err error) { o.Notes, err = p.Store.ReviewNotes(gctx, it.TicketID); return err })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	o.Reviewers = withValue(o.Reviewers, o.Assignee) // a reviewer whose token was revoked
	r := o.Draft
	o.Claims, o.Raw = r.Claims, drafts.Confidence(r.Scores, 0)
	if r.Abstained {
		o.Warnings = append(o.Warnings, "The draft abstained: no policy in force answers the question.")
	}
	if it.LowConfidence {
		o.Warnings = append(o.Warnings, "Confidence is low: some sentences may not follow from their sources.")
	}
	if r.Status == drafts.StatusStale {
		o.Warnings = append(o.Warnings, "The draft is out of date: the ticket or policy changed since it was written.")
	}
	ids := make([]string, 0, len(r.Evidence))
	for _, e := range r.Evidence {
		ids = append(ids, e.ChunkID)
	}
	var chunks map[string]store.ChunkInfo
	g, gctx = errgroup.WithContext(ctx)
	g.Go(func() (err error) { o.Ticket, err = p.Store.Ticket(gctx, it.TicketID, r.Revision); return found(err) })
	g.Go(func() (err error) { chunks, err = p.Store.ChunkInfos(gctx, ids); return err })
	if err := g.Wait(); err != nil {
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

// withValue is values with v added at the end when it is missing and not "".
func withValue(values []string, v string) []string {
	if v == "" || slices.Contains(values, v) {
		return values
	}
	return append(values, v)
}
