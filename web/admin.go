package web

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/store"
)

// adminWindow is how far back the admin view's counts reach.
const adminWindow = 12 * 7 * 24 * time.Hour

// adminView is the admin page: which drafts rest on which policy version, where the
// corpus abstains and what it could not answer, how send-checks went, and the kill switch.
type adminView struct {
	Docs      []docView
	Chart     chart
	Gaps      []store.Gap
	Checks    []store.LabelCount
	Unchecked []store.LabelCount // unchecked sends by cause
	Funnel    []funnelStage      // the intake funnel, in the order a message meets its stages
	Inbound   int                // messages that entered the funnel
	Overrides []store.Override
	// OverrideTotal counts every override in the window; Overrides lists the newest.
	OverrideTotal int
	KillSwitch    store.KillSwitch
	// Accepted are the contradictions an operator let an approval through with
	// (policy approve --accept-contradiction), newest first.
	Accepted []store.AcceptedContradiction
	// Traces are the newest `supportdraft trace` outcomes over the store.
	Traces []store.TraceRecord
	// Flip is the kill-switch button's JSON body: the opposite state, and who asked.
	Flip  string
	Since time.Time
	// Choice is the choice of agent for an admin of several: the counts are then one
	// agent's, or all of theirs together.
	Choice *agentChoice
}

// maxAccepted bounds the accepted contradictions the admin page lists.
const maxAccepted = 50

// maxTraces bounds the traces the admin page lists.
const maxTraces = 20

// maxOverrides bounds the overrides the admin page lists; the total counts them all.
const maxOverrides = 50

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
	counts, err := p.Store.FunnelStageCounts(ctx, since)
	if err != nil {
		return err
	}
	overrides, overrideTotal, err := p.Store.Overrides(ctx, since, maxOverrides)
	if err != nil {
		return err
	}
	accepted, err := p.Store.AcceptedContradictions(ctx, maxAccepted)
	if err != nil {
		return err
	}
	traces, err := p.Store.Traces(ctx, maxTraces)
	if err != nil {
		return err
	}
	halted, err := p.Store.KillSwitchState(ctx) // the live switch, as intake and rebuilds read it
	if err != nil {
		return err
	}
	v := adminView{Chart: abstentionChart(weeks, since, time.Now()), Gaps: gaps, Checks: checks, Unchecked: unchecked,
		Overrides: overrides, OverrideTotal: overrideTotal, KillSwitch: halted, Accepted: accepted, Traces: traces, Since: since,
		Choice: choiceOf(c, "/app/admin")}
	v.Funnel, v.Inbound = funnel(counts)
	who, _ := auth.From(c)
	flip, err := json.Marshal(map[string]any{"halted": !halted.Halted, "by": "admin page: " + who.Name})
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

// funnelStage is one stage of the intake funnel: how many messages reached it and what
// it did with them.
type funnelStage struct {
	Label    string // what the stage asks, in words
	Reached  int
	Passed   int // went on to the next stage
	Stopped  int // no draft: the funnel ended here
	Review   int // went on, forced to careful review
	Drafted  int // the draft stage: a draft was started
	Failures int // triage failed (treated as needing a reply) or the draft could not start
}

// funnelStages are the intake's stages in the order a message meets them, with what each
// asks in words.
var funnelStages = []struct{ step, label string }{
	{inbox.StepDuplicate, "Seen before? (duplicate message)"},
	{inbox.StepKillSwitch, "Drafting halted? (kill switch)"},
	{inbox.StepFirstResponse, "Already answered by an agent?"},
	{inbox.StepFilters, "Automated mail or a block rule?"},
	{inbox.StepRecipients, "Support only in copy?"},
	{inbox.StepTriage, "Does it need a billing reply? (triage)"},
	{inbox.StepDraft, "Draft started"},
}

// funnel lays the counts out in stage order; inbound is how many messages entered it
// (those its first stage saw). No messages: no stages.
func funnel(counts []store.StageOutcome) (stages []funnelStage, inbound int) {
	for _, st := range funnelStages {
		f := funnelStage{Label: st.label}
		for _, c := range counts {
			if c.Stage != st.step {
				continue
			}
			switch c.Outcome {
			case "":
				f.Reached = c.Count
			case inbox.OutcomePass:
				f.Passed = c.Count
			case inbox.OutcomeSkip:
				f.Stopped = c.Count
			case inbox.OutcomeReview:
				f.Review = c.Count
			case inbox.OutcomeStarted:
				f.Drafted = c.Count
			default:
				f.Failures += c.Count
			}
		}
		stages = append(stages, f)
	}
	if inbound = stages[0].Reached; inbound == 0 {
		return nil, 0
	}
	return stages, inbound
}
