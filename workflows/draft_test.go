package workflows_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

const refundQuestion = "Hi, I renewed my annual Pro plan last week by mistake. Can I still get a refund for the annual plan?"

// harness runs the real Draft workflow in the test environment with the real activities
// over a scratch store holding the sample corpus. Only the drafter may be scripted, and
// single activities may be overridden to fail. Steps run one after another: each starts a
// minute (of skipped test time) after the previous one completed.
type harness struct {
	t           *testing.T
	localModels bool // the worker's drafter and judge are the embedded ones
	env         *testsuite.TestWorkflowEnvironment
	store       *store.Store
	acts        *activities.Activities
	steps       []func(done func())
}

func newHarness(t *testing.T, drafter llm.Writer) *harness {
	t.Parallel()
	s := testenv.Store(t)
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(testenv.QuietLogger())
	env := suite.NewTestWorkflowEnvironment()
	acts := testenv.Activities(t, s, drafter)
	env.RegisterActivity(acts)
	return &harness{t: t, env: env, store: s, acts: acts}
}

// at adds a plain step.
func (h *harness) at(fn func()) {
	h.steps = append(h.steps, func(done func()) { fn(); done() })
}

// send adds a step that sends an update; the next step runs once onReject or onComplete
// has seen its answer.
func (h *harness) send(name string, onReject func(error), onComplete func(any, error), args ...any) {
	id := fmt.Sprintf("%s-%d", name, len(h.steps))
	h.steps = append(h.steps, func(done func()) {
		h.env.UpdateWorkflow(name, id, &testsuite.TestUpdateCallback{
			OnAccept:   func() {},
			OnReject:   func(err error) { onReject(err); done() },
			OnComplete: func(res any, err error) { onComplete(res, err); done() },
		}, args...)
	})
}

// update adds a step that sends an update and decodes its result into out (if non-nil).
func (h *harness) update(name string, out any, args ...any) {
	h.send(name, func(err error) { h.t.Errorf("%s rejected: %v", name, err) }, func(res any, err error) {
		if err != nil {
			h.t.Errorf("%s failed: %v", name, err)
			return
		}
		if out != nil {
			if err := jsonRoundTrip(res, out); err != nil {
				h.t.Errorf("%s result: %v", name, err)
			}
		}
	}, args...)
}

func (h *harness) runStep(i int) {
	if i < len(h.steps) {
		h.steps[i](func() { h.env.RegisterDelayedCallback(func() { h.runStep(i + 1) }, time.Minute) })
	}
}

// runStep0 schedules the first step; run does it too.
func (h *harness) runStep0() { h.env.RegisterDelayedCallback(func() { h.runStep(0) }, time.Minute) }

func (h *harness) run(ticketID string, revision int) *workflows.DraftResult {
	h.runStep0()
	h.env.RegisterWorkflowWithOptions(worker.DraftWorkflow(h.localModels))
	h.env.ExecuteWorkflow(workflows.DraftWorkflowType, &workflows.DraftInput{TicketID: ticketID, Revision: revision, IdleTimeout: 24 * time.Hour})
	require.True(h.t, h.env.IsWorkflowCompleted())
	require.NoError(h.t, h.env.GetWorkflowError())
	var res workflows.DraftResult
	require.NoError(h.t, h.env.GetWorkflowResult(&res))
	return &res
}

// buildOnce saves tk, opens the draft of its revision, discards it and runs the workflow
// to its end: one build, whose view it returns (latest reads the saved draft).
func (h *harness) buildOnce(tk *ticket.Ticket) workflows.DraftView {
	testenv.SaveTicket(h.t, h.store, tk)
	var opened workflows.DraftView
	h.update(workflows.UpdateOpen, &opened, workflows.OpenRequest{Revision: tk.Revision})
	h.update(workflows.UpdateDiscard, nil)
	h.run(tk.TicketID, tk.Revision)
	return opened
}

func (h *harness) latest(ticketID string) *drafts.Saved {
	r, err := h.store.LatestIteration(context.Background(), ticketID)
	require.NoError(h.t, err)
	return r
}

var now = time.Now().UTC().Add(-time.Hour)

func TestDraftHappyPathCitesCurrentPolicyAndSendsOK(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-1", 1, "pro", "eu", now, refundQuestion))
	var opened workflows.DraftView
	var check drafts.SendCheck
	h.update(workflows.UpdateOpen, &opened, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateSendCheck, &check, workflows.SendCheckRequest{})
	h.update(workflows.UpdateDiscard, nil)
	res := h.run("T-1", 1)

	assert.Equal(t, drafts.StatusDiscarded, res.Status)
	assert.Equal(t, drafts.StatusReady, opened.Status)
	assert.Contains(t, opened.Bound, drafts.BoundVersion{DocID: "billing/refunds-annual", Version: 4})
	assert.Equal(t, drafts.VerdictOK, check.Verdict)
	r := h.latest("T-1")
	assert.Contains(t, r.Reply, "14 days")
	assert.NotContains(t, r.Reply, "30 days")
	assert.Equal(t, 0, r.Unsupported)
	for _, c := range r.Claims {
		assert.True(t, c.Supported(), "claim %q: %s", c.Sentence, c.Failure)
	}
	assert.Greater(t, r.Confidence, 0.5)
	assert.Equal(t, drafts.StatusDiscarded, r.Status, "discard is recorded on the saved draft")
}

// With the embedded providers, generate, judge and score run as local activities, and the
// draft is the same.
func TestDraftWithLocalModelsRunsModelStepsAsLocalActivities(t *testing.T) {
	h := newHarness(t, nil)
	h.localModels = true
	var local, remote []string
	h.env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		local = append(local, info.ActivityType.Name)
	})
	h.env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		remote = append(remote, info.ActivityType.Name)
	})
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-10", 1, "pro", "eu", now, refundQuestion))
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-10", 1)

	for _, step := range []string{"Generate", "JudgeClaims", "Score"} {
		assert.Contains(t, local, step)
		assert.NotContains(t, remote, step)
	}
	r := h.latest("T-10")
	assert.Contains(t, r.Reply, "14 days")
	assert.Equal(t, 0, r.Unsupported)
}

// liar is a model that invents a refund window, cites a chunk that does not exist, and
// misquotes a retrieved one, around one honest sentence.
var liar = llm.Answer{
	Reply: "Hi, thanks for writing. Annual plans can be refunded in full within 14 days of the purchase date or the renewal date. " +
		"You have a 30-day refund window on annual plans. We will credit 20% of your plan as compensation. " +
		"Refunds are issued within 2 business days. If anything is unclear, just reply to this email.",
	Claims: []llm.Claim{
		{Sentence: "Annual plans can be refunded in full within 14 days of the purchase date or the renewal date.",
			ChunkIDs: []string{"billing/refunds-annual@4#refund-window"},
			Quote:    "Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date."},
		{Sentence: "You have a 30-day refund window on annual plans.",
			ChunkIDs: []string{"billing/refunds-annual@4#refund-window"},
			Quote:    "Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date."},
		{Sentence: "We will credit 20% of your plan as compensation.",
			ChunkIDs: []string{"billing/goodwill@1#credits"}, Quote: "We credit 20% of the plan."},
		{Sentence: "Refunds are issued within 2 business days.",
			ChunkIDs: []string{"billing/refunds-annual@4#refund-window"}, Quote: "Refunds are issued within 2 business days."},
	},
}

func TestDraftStrikesWhatTheModelInventedAndKeepsTheRest(t *testing.T) {
	h := newHarness(t, testenv.Scripted{Reply: liar})
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-2", 1, "pro", "eu", now, refundQuestion))
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-2", 1)

	r := h.latest("T-2")
	struck := map[string]string{}
	for _, s := range r.Sentences {
		if !s.Kept {
			struck[s.Text] = s.Reason
		}
	}
	require.Len(t, struck, 3, "sentences: %+v", r.Sentences)
	assert.Contains(t, struck["You have a 30-day refund window on annual plans."], "contradicts", "judge verdict")
	assert.Contains(t, struck["We will credit 20% of your plan as compensation."], "billing/goodwill@1#credits", "unknown chunk")
	assert.Contains(t, struck["Refunds are issued within 2 business days."], "verbatim", "non-verbatim quote")
	assert.Contains(t, r.Reply, "within 14 days of the purchase date", "the honest sentence stays")
	assert.NotContains(t, r.Reply, "30-day")
	assert.Contains(t, r.Note, "Not covered by current policy")
	assert.NotContains(t, r.Reply, "Not covered by current policy", "the editor is never pre-filled with the note")
	assert.Equal(t, 3, r.Unsupported)
	assert.LessOrEqual(t, r.Confidence, 0.3, "two or more unsupported claims cap confidence at 0.3")
	assert.Equal(t, []drafts.BoundVersion{{DocID: "billing/refunds-annual", Version: 4}}, r.Bound)

	var logged int
	require.NoError(t, h.store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM rejections WHERE ticket_id = 'T-2'`).Scan(&logged))
	assert.Equal(t, 3, logged, "every strike is in the rejection log")
}

// searcher is a tool-use drafter in miniature: it answers from a chunk it "found by
// searching", outside the retrieved evidence, and reports a retrieved chunk as found too.
type searcher struct{ found []policy.Evidence }

func (s searcher) Write(_ context.Context, req llm.Request) (*llm.Answer, error) {
	quote := strings.SplitAfter(s.found[0].Text, ".")[0]
	quote = strings.TrimSpace(quote[strings.LastIndex(quote, "\n")+1:])
	return &llm.Answer{Reply: "Hi,\n\n" + quote,
		Claims: []llm.Claim{{Sentence: quote, ChunkIDs: []string{s.found[0].ChunkID}, Quote: quote}},
		Found:  append(slices.Clone(s.found), req.Evidence[0])}, nil
}

// A chunk the drafter found by searching may be cited like retrieved evidence: it binds
// the draft, and each chunk is listed once.
func TestDraftCitesWhatTheDrafterFoundBySearching(t *testing.T) {
	h := newHarness(t, nil)
	found, err := h.store.Chunks(context.Background(), []string{"billing/refunds-annual@4#what-is-refunded"})
	require.NoError(t, err)
	require.Len(t, found, 1)
	h.acts.Writer = searcher{found: found}
	h.acts.K = 1 // retrieval returns one chunk; the cited one only the search found
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-9", 1, "pro", "eu", now, refundQuestion))
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-9", 1)

	r := h.latest("T-9")
	require.Len(t, r.Claims, 1)
	assert.True(t, r.Claims[0].Supported(), r.Claims[0].Failure)
	assert.Contains(t, r.Bound, drafts.BoundVersion{DocID: "billing/refunds-annual", Version: 4})
	var ids []string
	for _, e := range r.Evidence {
		ids = append(ids, e.ChunkID)
	}
	assert.Len(t, ids, 2, "one retrieved chunk and one found: %v", ids)
	assert.Contains(t, ids, found[0].ChunkID)
}

func TestDraftAbstainsWhenNoPolicyAnswers(t *testing.T) {
	h := newHarness(t, nil)
	// Enterprise accounts have no refund policy in the sample corpus.
	opened := h.buildOnce(testenv.Ticket("T-3", 1, "free", "apac", now,
		"Can you send me a hoodie with your logo on it? I love the product."))
	assert.Equal(t, drafts.StatusAbstained, opened.Status)
	r := h.latest("T-3")
	assert.True(t, r.Abstained)
	assert.Contains(t, r.Note, drafts.AbstainNote)
}

func TestSendCheckStaleByRevisionThenRebuildIsOK(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-4", 1, "pro", "eu", now, refundQuestion))
	var stale, fresh drafts.SendCheck
	var rebuilt workflows.DraftView
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.at(func() {
		testenv.SaveTicket(t, h.store, testenv.Ticket("T-4", 2, "pro", "eu", now.Add(30*time.Minute), "Also, is VAT refunded too?"))
		h.env.SignalWorkflow(workflows.SignalRevision, workflows.RevisionSignal{Revision: 2, UpdatedAt: now.Add(30 * time.Minute)})
	})
	h.update(workflows.UpdateSendCheck, &stale, workflows.SendCheckRequest{})
	h.update(workflows.UpdateRebuild, &rebuilt)
	h.update(workflows.UpdateSendCheck, &fresh, workflows.SendCheckRequest{})
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-4", 1)

	assert.Equal(t, drafts.VerdictStale, stale.Verdict)
	require.NotEmpty(t, stale.Reasons)
	assert.Contains(t, stale.Reasons[0].Message, "customer replied at")
	assert.Equal(t, 2, rebuilt.Iteration)
	assert.Equal(t, 2, rebuilt.Revision)
	assert.Equal(t, drafts.VerdictOK, fresh.Verdict, "reasons: %+v", fresh.Reasons)
	first, err := h.store.Iteration(context.Background(), "T-4", 1)
	require.NoError(t, err)
	assert.Equal(t, drafts.StatusStale, first.Status, "the earlier iteration stays, marked stale")
}

// A send-check after a change the draft was not built on answers stale and names the
// change: a newer approved version of the policy it cites, or a revision of the ticket on
// another plan.
func TestSendCheckStaleAfterAChange(t *testing.T) {
	for _, tc := range []struct {
		name, ticketID string
		change         func(h *harness)
		reason         string
	}{
		{"policy version", "T-5", func(h *harness) {
			approved := time.Now().UTC().Add(-time.Minute)
			v := &policy.Version{DocID: "billing/refunds-annual", Version: 6, Status: policy.StatusApproved, Source: "wiki",
				Title: "Refunds on annual plans", Area: "refunds", EffectiveFrom: &approved, ApprovedAt: &approved,
				Plans: []string{"pro", "business"}, Regions: []string{"eu", "uk"}, Locale: "en", ContentHash: "v6",
				Chunks: []policy.Chunk{{ID: "billing/refunds-annual@6#refund-window", Anchor: "refund-window", Text: "Refunds within 21 days."}}}
			_, err := h.store.Import(context.Background(), []*policy.Version{v}, testenv.Embedder)
			require.NoError(h.t, err)
		}, "policy billing/refunds-annual v6 approved at"},
		{"plan", "T-6", func(h *harness) {
			testenv.SaveTicket(h.t, h.store, testenv.Ticket("T-6", 2, "business", "eu", now.Add(time.Minute), refundQuestion))
		}, "plan changed from pro to business"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			testenv.SaveTicket(t, h.store, testenv.Ticket(tc.ticketID, 1, "pro", "eu", now, refundQuestion))
			var check drafts.SendCheck
			h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
			h.at(func() { tc.change(h) })
			h.update(workflows.UpdateSendCheck, &check, workflows.SendCheckRequest{})
			h.update(workflows.UpdateDiscard, nil)
			h.run(tc.ticketID, 1)
			require.Equal(t, drafts.VerdictStale, check.Verdict)
			var messages []string
			for _, r := range check.Reasons {
				messages = append(messages, r.Message)
			}
			assert.Contains(t, strings.Join(messages, "\n"), tc.reason)
		})
	}
}

func TestSendCheckUncheckedWhenTheCheckCannotRun(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-7", 1, "pro", "eu", now, refundQuestion))
	h.env.OnActivity(h.acts.CheckFresh, mock.Anything, mock.Anything).Return(nil, errors.New("connection refused"))
	var check drafts.SendCheck
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateSendCheck, &check, workflows.SendCheckRequest{})
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-7", 1)
	assert.Equal(t, drafts.VerdictUnchecked, check.Verdict)
	assert.Equal(t, drafts.UncheckedWarning, check.Warning)
}

func TestIdleDraftClosesAfterTimeout(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-8", 1, "pro", "eu", now, refundQuestion))
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	res := h.run("T-8", 1)
	assert.Equal(t, drafts.StatusClosed, res.Status)
	assert.Equal(t, drafts.StatusClosed, h.latest("T-8").Status)
}

func TestEditIsCheckedNotStruck(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-9", 1, "pro", "eu", now, refundQuestion))
	const text = "Hi {{first_name}}, we will refund you within 30 days."
	ref, err := h.store.SaveAgentText(context.Background(), "T-9", store.TextEdit, text)
	require.NoError(t, err)
	var counted workflows.EditResult
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateEdit, &counted, workflows.EditRequest{Ref: &ref})
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-9", 1)
	assert.Equal(t, workflows.EditResult{TextID: ref.ID, Sentences: 1, Flagged: 1}, counted, "the update answers counts, never the words")
	checked, err := h.store.TextChecks(context.Background(), "T-9", ref.ID)
	require.NoError(t, err)
	require.Len(t, checked.Sentences, 1)
	assert.False(t, checked.Sentences[0].Kept)
	assert.NotEmpty(t, checked.Sentences[0].Placeholders)
	assert.Equal(t, text, h.latest("T-9").EditedText, "the agent's text is stored on the draft as written")
}

// A long-lived draft continues as new and carries its state: the current draft, its
// iteration, the revision and the stale reasons.
func TestLongDraftContinuesAsNewWithItsState(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-10", 1, "pro", "eu", now, refundQuestion))
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.at(func() { h.env.SetCurrentHistoryLength(2500) })
	h.update(workflows.UpdateSendCheck, nil, workflows.SendCheckRequest{})
	h.runStep0()
	h.env.RegisterWorkflowWithOptions(worker.DraftWorkflow(false))
	h.env.ExecuteWorkflow(workflows.DraftWorkflowType, &workflows.DraftInput{TicketID: "T-10", Revision: 1, IdleTimeout: 24 * time.Hour})
	require.True(t, h.env.IsWorkflowCompleted())
	var can *workflow.ContinueAsNewError
	require.ErrorAs(t, h.env.GetWorkflowError(), &can)
	var next workflows.DraftInput
	require.NoError(t, converter.GetDefaultDataConverter().FromPayloads(can.Input, &next))
	assert.Equal(t, "T-10", next.TicketID)
	assert.Equal(t, 1, next.Iteration)
	require.NotNil(t, next.Draft)
	assert.Equal(t, drafts.StatusReady, next.Draft.Status)
	assert.Contains(t, next.Draft.Reply, "14 days", "the draft itself carries over, so an open after it needs no read")
	assert.Equal(t, 24*time.Hour, next.IdleTimeout, "settings carry over")
}

// The send hook judges freshness in the API and tells the workflow the verdict: a stale
// verdict on the current iteration turns the draft stale in the workflow and in the
// database; one on an iteration a rebuild has replaced changes nothing.
func TestSendCheckedSignalMarksOnlyTheCurrentIterationStale(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-12", 1, "pro", "eu", now, refundQuestion))
	reasons := []drafts.StaleReason{{Kind: "policy", Message: "policy billing/refunds-annual v6 is now in force (the draft quotes v4)"}}
	var afterOld, afterCurrent workflows.DraftState
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateRebuild, nil)
	h.at(func() {
		h.env.SignalWorkflow(workflows.SignalSendChecked, workflows.SendCheckedSignal{Iteration: 1, Verdict: drafts.VerdictStale, Reasons: reasons})
	})
	h.at(func() { afterOld = h.query() })
	h.at(func() {
		h.env.SignalWorkflow(workflows.SignalSendChecked, workflows.SendCheckedSignal{Iteration: 2, Verdict: drafts.VerdictStale, Reasons: reasons})
	})
	h.at(func() { afterCurrent = h.query() })
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-12", 1)

	assert.Equal(t, drafts.StatusReady, afterOld.Status, "a verdict on iteration 1 says nothing about iteration 2")
	assert.Equal(t, drafts.StatusStale, afterCurrent.Status)
	assert.Equal(t, reasons, afterCurrent.StaleReasons)
	second, err := h.store.Iteration(context.Background(), "T-12", 2)
	require.NoError(t, err)
	assert.Equal(t, drafts.StatusDiscarded, second.Status)
	assert.Equal(t, reasons, second.StaleReasons, "the stale reasons were recorded on the draft")
}

// query reads the workflow's state.
func (h *harness) query() workflows.DraftState {
	v, err := h.env.QueryWorkflow(workflows.QueryState)
	require.NoError(h.t, err)
	var s workflows.DraftState
	require.NoError(h.t, v.Get(&s))
	return s
}
