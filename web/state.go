package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/store"
)

// liveState is what an open sidebar polls (GET /app/tickets/{ticket}/state): enough to
// show a new draft, a stale banner, a reviewer's decision and the kill switch without a
// reload. Staleness is judged now, as the send hook would, so a policy approved a minute
// ago shows on a sidebar opened an hour ago.
type liveState struct {
	Iteration int      `json:"iteration"` // 0 while the first draft is being built
	Status    string   `json:"status"`
	Chip      chip     `json:"chip"`
	Stale     []string `json:"stale"` // why the draft is out of date, in words; empty when it is not
	Ended     bool     `json:"ended"`
	Halted    bool     `json:"halted"`
	HaltedBy  string   `json:"halted_by,omitempty"`
}

func (p *Pages) state(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("ticket")
	k, err := p.Store.KillSwitchState(ctx)
	if err != nil {
		return err
	}
	s := liveState{Halted: k.Halted, Stale: []string{}}
	if k.Halted {
		s.HaltedBy = k.ChangedBy
	}
	r, err := p.Store.LatestIteration(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return c.JSON(http.StatusOK, s)
	}
	if err != nil {
		return err
	}
	s.Iteration, s.Status, s.Ended = r.Iteration, r.Status, drafts.Ended(r.Status)
	reasons := r.StaleReasons
	if !s.Ended && r.Status != drafts.StatusStale {
		if reasons, err = p.staleNow(c, r); err != nil {
			return err
		}
		if len(reasons) > 0 {
			r.Status = drafts.StatusStale // for the chip; the workflow marks the row at the next check
		}
	}
	for _, sr := range reasons {
		s.Stale = append(s.Stale, sr.Message)
	}
	rv, err := p.Store.ReviewOf(ctx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	s.Chip = draftState(r, rv)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, s)
}

// staleNow compares the draft's bindings with the ticket's latest revision and the policy
// in force now (drafts.Staleness, as the send hook does).
func (p *Pages) staleNow(c echo.Context, r *drafts.Saved) ([]drafts.StaleReason, error) {
	ctx := c.Request().Context()
	latest, err := p.Store.LatestTicket(ctx, r.TicketID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil // a draft saved without its ticket (a benchmark's copy): nothing to compare
	}
	if err != nil {
		return nil, err
	}
	now, err := p.Store.SendTimeState(ctx, latest, r.Bound, time.Now())
	if err != nil {
		return nil, err
	}
	return drafts.Staleness(r.Summarize(), now), nil
}
