package web

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"

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
	now := time.Now()
	v := adminView{Since: now.Add(-adminWindow)}
	var (
		cites  []store.VersionCitations
		weeks  []store.AreaWeek
		counts []store.StageOutcome
	)
	// The page's reads do not depend on each other: they run at once, so the page waits
	// for the slowest (the citations, over every draft), not for their sum.
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { cites, err = p.Store.Citations(gctx); return err })
	g.Go(func() (err error) { weeks, err = p.Store.Abstentions(gctx, v.Since); return err })
	g.Go(func() (err error) { v.Gaps, err = p.Store.Gaps(gctx, v.Since); return err })
	g.Go(func() (err error) { v.Checks, err = p.Store.SendCheckCounts(gctx, v.Since); return err })
	g.Go(func() (err error) { v.Unchecked, err = p.Store.UncheckedByCause(gctx, v.Since); return err })
	g.Go(func() (err error) { counts, err = p.Store.FunnelStageCounts(gctx, v.Since); return err })
	g.Go(func() (err error) {
		v.Overrides, v.OverrideTotal, err = p.Store.Overrides(gctx, v.Since, maxOverrides)
		return err
	})
	g.Go(func() (err error) { v.Accepted, err = p.Store.AcceptedContradictions(gctx, maxAccepted); return err })
	g.Go(func() (err error) { v.Traces, err = p.Store.Traces(gctx, maxTraces); return err })
	// The live switch, as intake and rebuilds read it.
	g.Go(func() (err error) { v.KillSwitch, err = p.Store.KillSwitchState(gctx); return err })
	if err := g.Wait(); err != nil {
		return err
	}
	v.Chart = abstentionChart(weeks, v.Since, now)
	v.Choice = choiceOf(c, "/app/admin")
	v.Funnel, v.Inbound = funnel(counts)
	who, _ := auth.From(c)
	flip, err := json.Marshal(map[string]any{"halted": !v.KillSwitch.Halted, "by": "admin page: " + who.Name})
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
