package web

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/store"
)

// adminWindow is how far back the admin view's counts reach.
const adminWindow = 12 * 7 * 24 * time.Hour

// adminView is the admin page: which drafts rest on which policy version, where the
// corpus abstains and what it could not answer, how send-checks went, and the kill switch.
type adminView struct {
	Docs       []docView
	Chart      chart
	Gaps       []store.Gap
	Checks     []store.LabelCount
	Unchecked  []store.LabelCount // unchecked sends by cause
	Funnel     []store.LabelCount // intake decisions by stage and outcome
	KillSwitch bool
	// Flip is the kill-switch button's JSON body: the opposite state, and who asked.
	Flip  string
	Since time.Time
}

// docView is one document's versions, newest first.
type docView struct {
	DocID    string
	Versions []store.VersionCitations
}

func (p *Pages) admin(c echo.Context) error {
	ctx := c.Request().Context()
	since := time.Now().Add(-adminWindow)
	cites, err := p.Store.Citations(ctx)
	if err != nil {
		return err
	}
	weeks, err := p.Store.Abstentions(ctx, since)
	if err != nil {
		return err
	}
	gaps, err := p.Store.Gaps(ctx, since)
	if err != nil {
		return err
	}
	checks, err := p.Store.SendCheckCounts(ctx, since)
	if err != nil {
		return err
	}
	unchecked, err := p.Store.UncheckedByCause(ctx, since)
	if err != nil {
		return err
	}
	funnel, err := p.Store.FunnelCounts(ctx, since)
	if err != nil {
		return err
	}
	halted, err := p.Store.Halted(ctx) // the live switch, as intake and rebuilds read it
	if err != nil {
		return err
	}
	v := adminView{Chart: abstentionChart(weeks, since, time.Now()), Gaps: gaps, Checks: checks, Unchecked: unchecked, Funnel: funnel,
		KillSwitch: halted, Since: since}
	who, _ := auth.From(c)
	flip, err := json.Marshal(map[string]any{"halted": !halted, "by": "admin page: " + who.Name})
	if err != nil {
		return err
	}
	v.Flip = string(flip)
	for _, vc := range cites {
		if n := len(v.Docs); n == 0 || v.Docs[n-1].DocID != vc.DocID {
			v.Docs = append(v.Docs, docView{DocID: vc.DocID})
		}
		d := &v.Docs[len(v.Docs)-1]
		d.Versions = append(d.Versions, vc)
	}
	return p.render(c, http.StatusOK, "admin", "Admin", v)
}
