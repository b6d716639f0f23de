package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/sendcheck"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// The human loop on the real stack: a draft enters the review queue, a reviewer approves
// it, a second draft is killed from the queue, and the help desk reports what it sent.
func TestReviewQueueApproveKillAndSentThroughTheAPI(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	kept, killed := testenv.Unique("RV-"), testenv.Unique("RV-")

	v := openDraft(t, ts, kept, refundQuestion)
	require.NotNil(t, v.Review)
	assert.Equal(t, review.Waiting, v.Review.State)
	openDraft(t, ts, killed, refundQuestion)

	var queue struct{ Queue []review.Item }
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/review/queue", nil, &queue))
	byTicket := map[string]review.Item{}
	for _, it := range queue.Queue {
		byTicket[it.TicketID] = it
	}
	require.Contains(t, byTicket, kept)
	assert.True(t, byTicket[kept].WindowOpen)
	assert.Equal(t, v.Reply, byTicket[kept].Reply)

	var approved review.Entry
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+kept+"/approve", nil, &approved))
	assert.Equal(t, review.Approved, approved.State, "handed off when the 10-minute window ends")
	assert.NotEmpty(t, approved.DecidedBy, "the reviewer's token name")

	var e struct{ Error string }
	var assigned map[string]string
	require.Equal(t, http.StatusOK, callAs(t, ts, auth.Reviewer, "POST", "/v1/drafts/"+kept+"/assign", map[string]string{"assignee": " Ana "}, &assigned))
	assert.Equal(t, "Ana", assigned["assignee"], "an approved draft in its window can still be assigned")
	assert.Equal(t, http.StatusBadRequest, callAs(t, ts, auth.Reviewer, "POST", "/v1/drafts/"+kept+"/assign", map[string]string{}, &e))
	assert.Contains(t, e.Error, `field "assignee" is required`)
	assert.Equal(t, http.StatusNotFound, callAs(t, ts, auth.Reviewer, "POST", "/v1/drafts/NO-SUCH-TICKET/assign", map[string]string{"assignee": "Ana"}, &e))
	assert.Equal(t, "ticket NO-SUCH-TICKET is not waiting for review", e.Error)
	assert.Equal(t, http.StatusForbidden, callAs(t, ts, auth.Agent, "POST", "/v1/drafts/"+kept+"/assign", map[string]string{"assignee": "Ana"}, nil),
		"agents do not assign reviews")
	notes, err := s.ReviewNotes(t.Context(), kept)
	require.NoError(t, err)
	require.NotEmpty(t, notes)
	last := notes[len(notes)-1]
	assert.Equal(t, []string{"assign", "Ana", approved.DecidedBy}, []string{last.Action, last.Assignee, last.By}, "noted with who assigned it")

	require.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts/"+killed+"/kill", `{"reason": "x", "extra": 1}`, &e))
	assert.Contains(t, e.Error, "extra", "a decision's body is strict JSON")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+killed+"/kill", map[string]string{"reason": "promises a refund outside policy"}, nil))
	var afterKill workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+killed, nil, &afterKill))
	assert.Equal(t, drafts.StatusKilled, afterKill.Status)
	note, err := s.ReviewOf(t.Context(), killed)
	require.NoError(t, err)
	assert.Equal(t, "promises a refund outside policy", note.Reason, "the reason is kept with the decision")
	var reopened workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+killed+"/reopen", nil, &reopened))
	assert.Equal(t, afterKill.Iteration+1, reopened.Iteration, "a new draft from the latest stored revision")
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/NO-SUCH-TICKET/reopen", nil, nil))

	var sent workflows.SentResult
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+kept+"/sent",
		map[string]any{"text": v.Reply + "\n\nBest, Bob", "sent_at": time.Now().UTC(), "agent": "bob"}, &sent))
	assert.Equal(t, drafts.StatusSent, sent.Status)
	assert.True(t, sent.Edited)
	assert.Equal(t, drafts.VerdictOK, sent.Verdict)

	var stored struct {
		hash   string
		edited bool
	}
	require.NoError(t, s.Pool().QueryRow(t.Context(), `SELECT text_sha256, edited FROM sent_replies WHERE ticket_id = $1`, kept).
		Scan(&stored.hash, &stored.edited))
	assert.Equal(t, review.TextHash(v.Reply+"\n\nBest, Bob"), stored.hash, "the hash is kept, never the text")
	assert.True(t, stored.edited)

	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/review/queue", nil, &queue))
	for _, it := range queue.Queue {
		assert.NotEqual(t, kept, it.TicketID, "a sent draft left the queue")
	}
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+kept+"/approve", nil, nil), "the workflow has ended")
}

// gated serves the API over a real worker, like stackAPI, and also returns what a test
// needs to open drafts as intake does (forced to review) and to change policy.
type gated struct {
	ts    *testAPI
	store *store.Store
	c     client.Client
	tq    string
}

func gatedAPI(t *testing.T, reviewDelay time.Duration) *gated {
	t.Helper()
	s := testenv.Store(t)
	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.StartWorker(t, st, "test-gate-", nil)
	return &gated{ts: serveStack(t, st, tq, api.Config{ReviewDelay: reviewDelay}, nil), store: s, c: c, tq: tq}
}

// openForced opens a refund draft the way intake does when a review rule matched.
func (g *gated) openForced(t *testing.T, id, why string) *workflows.DraftView {
	t.Helper()
	tk := refundTicket(id, 1, "pro", asked, refundQuestion)
	testenv.SaveTicket(t, g.store, tk)
	v, err := workflows.Open(context.Background(), g.c, workflows.DraftWorkflowID(agent.Default, id), g.tq, &workflows.DraftInput{
		TicketID: id, Revision: 1, IdleTimeout: time.Hour, CheckBudget: 30 * time.Second, ForcedReview: why,
		ReviewDelay: 10 * time.Minute})
	require.NoError(t, err)
	require.NotNil(t, v.Review)
	return v
}

const harmless = "Hi,\n\nThanks for writing in: we are looking into it.\n\nBest, Sam"

// A draft forced to review answers review_pending at send-check, saying why and who must
// act, and its sent report is refused with 409, until a reviewer approves it: then the
// same text is ok. Each verdict is counted and recorded.
func TestReviewGateHoldsTheSendUntilApproved(t *testing.T) {
	t.Parallel()
	g := gatedAPI(t, 10*time.Minute)
	id := testenv.Unique("RG-")
	why := `review rule "lawyer" matched`
	g.openForced(t, id, why)

	var check drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": harmless}, &check))
	assert.Equal(t, drafts.VerdictReviewPending, check.Verdict)
	require.Len(t, check.Review, 1)
	assert.Equal(t, "forced_review", check.Review[0].Kind)
	assert.Contains(t, check.Review[0].Message, why)
	assert.Equal(t, drafts.ReviewerRole, check.MustAct)
	assert.Contains(t, check.Warning, "A reviewer must approve this draft")

	var e struct{ Error string }
	sent := map[string]any{"text": harmless, "sent_at": time.Now().UTC(), "agent": "bob"}
	require.Equal(t, http.StatusConflict, call(t, g.ts, "POST", "/v1/drafts/"+id+"/sent", sent, &e))
	assert.Contains(t, e.Error, why, "the refusal says why the draft must be reviewed")

	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+id+"/approve", nil, nil))
	var after drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": harmless}, &after))
	assert.Equal(t, drafts.VerdictOK, after.Verdict, "approved: the gate is cleared")
	assert.Empty(t, after.Review)

	assert.Equal(t, []string{drafts.VerdictReviewPending, drafts.VerdictOK}, sendChecks(t, g.store, id))
	var recorded []drafts.ReviewReason
	require.NoError(t, g.store.Pool().QueryRow(context.Background(),
		`SELECT review FROM send_checks WHERE ticket_id = $1 ORDER BY id LIMIT 1`, id).Scan(&recorded))
	require.Len(t, recorded, 1)
	assert.Equal(t, "forced_review", recorded[0].Kind)
	assert.Contains(t, get(t, g.ts, "/metrics", auth.Admin), `supportdraft_send_checks_total{agent="billing",verdict="review_pending"} 1`)

	var res workflows.SentResult
	sent["sent_at"] = time.Now().UTC().Add(time.Second) // a new report, not a replay of the refused one
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+id+"/sent", sent, &res))
	assert.Equal(t, drafts.VerdictOK, res.Verdict)
}

// A reviewer may clear the gate without approving, with a reason kept on the entry; the
// help desk may report a send the gate should have held only with an override reason and
// who sent it, recorded and counted. Missing fields are 400s naming them.
func TestReviewGateOverrides(t *testing.T) {
	t.Parallel()
	g := gatedAPI(t, 10*time.Minute)
	byReviewer, byHelpdesk := testenv.Unique("RO-"), testenv.Unique("RO-")
	g.openForced(t, byReviewer, "support is only copied (cc): the mail is addressed to someone else")
	g.openForced(t, byHelpdesk, `review rule "chargeback" matched`)

	var e struct{ Error string }
	assert.Equal(t, http.StatusBadRequest, call(t, g.ts, "POST", "/v1/drafts/"+byReviewer+"/override", map[string]string{"reason": " "}, &e))
	assert.Contains(t, e.Error, `"reason"`)
	assert.Equal(t, http.StatusBadRequest, call(t, g.ts, "POST", "/v1/drafts/"+byReviewer+"/override", map[string]string{"why": "x"}, &e))
	assert.Equal(t, http.StatusForbidden, callAs(t, g.ts, auth.Agent, "POST", "/v1/drafts/"+byReviewer+"/override", nil, nil), "agents cannot override the gate")

	var entry review.Entry
	reason := "the customer's lawyer asked for exactly this wording; checked by legal"
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+byReviewer+"/override", map[string]string{"reason": reason}, &entry))
	assert.Equal(t, review.Overridden, entry.State)
	assert.Equal(t, reason, entry.OverrideReason)
	assert.NotEmpty(t, entry.DecidedBy)
	var check drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+byReviewer+"/send-check", map[string]string{"text": harmless}, &check))
	assert.Equal(t, drafts.VerdictOK, check.Verdict)
	assert.Equal(t, http.StatusConflict, call(t, g.ts, "POST", "/v1/drafts/"+byReviewer+"/override", map[string]string{"reason": reason}, &e),
		"a cleared gate has nothing to override")

	sent := map[string]any{"text": harmless, "sent_at": time.Now().UTC(), "override_reason": "customer called; sent by phone script"}
	assert.Equal(t, http.StatusBadRequest, call(t, g.ts, "POST", "/v1/drafts/"+byHelpdesk+"/sent", sent, &e))
	assert.Contains(t, e.Error, `"agent"`)
	sent["agent"] = "bob"
	var res workflows.SentResult
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+byHelpdesk+"/sent", sent, &res))
	assert.Equal(t, drafts.VerdictReviewPending, res.Verdict, "recorded as sent past the gate")
	var agent, kept string
	require.NoError(t, g.store.Pool().QueryRow(context.Background(),
		`SELECT agent, override_reason FROM sent_replies WHERE ticket_id = $1`, byHelpdesk).Scan(&agent, &kept))
	assert.Equal(t, "bob", agent)
	assert.Equal(t, sent["override_reason"], kept)
	metrics := get(t, g.ts, "/metrics", auth.Admin)
	assert.Contains(t, metrics, `supportdraft_review_overrides_total{agent="billing",how="override"} 1`)
	assert.Contains(t, metrics, `supportdraft_review_overrides_total{agent="billing",how="sent"} 1`)
}

// An approved draft that goes stale before its window ends (a new policy version is
// approved) is held in the queue with the reason, not handed off.
func TestHandOffHoldsAStaleDraft(t *testing.T) {
	t.Parallel()
	g := gatedAPI(t, 3*time.Second)
	id := testenv.Unique("HS-")
	var v workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked,
		"Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge, and how long does it take to reach our card?"), &v))
	require.Contains(t, v.Bound, drafts.BoundVersion{DocID: "billing/refunds-annual", Version: 4})
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+id+"/approve", nil, nil))
	importRefundsV6(t, g.store)

	var queue struct{ Queue []review.Item }
	require.Eventually(t, func() bool {
		require.Equal(t, http.StatusOK, call(t, g.ts, "GET", "/v1/review/queue", nil, &queue))
		for _, it := range queue.Queue {
			if it.TicketID == id && it.State == review.Held {
				assert.Contains(t, it.HandOffError, "billing/refunds-annual v6")
				return true
			}
		}
		return false
	}, 20*time.Second, 100*time.Millisecond, "the stale draft stays in the queue, held")
	var state string
	require.NoError(t, g.store.Pool().QueryRow(context.Background(), `SELECT state FROM review_queue WHERE ticket_id = $1`, id).Scan(&state))
	assert.Equal(t, review.Held, state, "never handed off or recorded")
}

// importRefundsV6 approves a 21-day v6 of billing/refunds-annual for pro and business in
// the EU and UK, effective a minute ago.
func importRefundsV6(t *testing.T, s *store.Store) {
	t.Helper()
	approved := time.Now().UTC().Add(-time.Minute)
	next := &policy.Version{DocID: "billing/refunds-annual", Version: 6, Status: policy.StatusApproved, Source: "wiki",
		Title: "Refunds on annual plans", Area: "refunds", EffectiveFrom: &approved, ApprovedAt: &approved,
		Plans: []string{"pro", "business"}, Regions: []string{"eu", "uk"}, Locale: "en", ContentHash: "v6",
		Chunks: []policy.Chunk{{ID: "billing/refunds-annual@6#refund-window", Anchor: "refund-window", Text: "Refunds within 21 days."}}}
	_, err := s.Import(context.Background(), []*policy.Version{next}, testenv.Embedder)
	require.NoError(t, err)
}

// Approving a version that replaces one a draft quotes turns the draft stale at once, with
// no send-check; send-check then answers stale first, even for a text that also holds the
// gap note (which alone answers blocked).
func TestApprovalTurnsCitingDraftsStale(t *testing.T) {
	t.Parallel()
	g := gatedAPI(t, 10*time.Minute)
	id, other := testenv.Unique("AS-"), testenv.Unique("AS-")
	question := "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge, and how long does it take to reach our card?"
	var v workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, question), &v))
	require.Contains(t, v.Bound, drafts.BoundVersion{DocID: "billing/refunds-annual", Version: 4})
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts", refundTicket(other, 1, "pro", asked, question), nil))

	gap := v.Reply + "\n\n[Not covered by current policy: 1 sentence removed — please answer this part yourself.]"
	var check drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+other+"/send-check", map[string]string{"text": gap}, &check))
	assert.Equal(t, drafts.VerdictBlocked, check.Verdict, "the gap note is an unresolved marker")
	require.Len(t, check.Placeholders, 1)
	assert.Contains(t, check.Placeholders[0], "Not covered by current policy")

	importRefundsV6(t, g.store)
	told, err := sendcheck.MarkStale(context.Background(), g.store, g.c, []string{"billing/refunds-annual"}, time.Now())
	require.NoError(t, err)
	var ids []string
	for _, d := range told {
		ids = append(ids, d.TicketID)
	}
	assert.Contains(t, ids, id)
	assert.Contains(t, ids, other)
	require.Eventually(t, func() bool {
		var after workflows.DraftView
		return call(t, g.ts, "GET", "/v1/drafts/"+id, nil, &after) == http.StatusOK && after.Status == drafts.StatusStale &&
			len(after.StaleReasons) > 0
	}, 10*time.Second, 50*time.Millisecond, "the draft is stale before any send-check")
	assert.Empty(t, sendChecks(t, g.store, id), "no send-check was needed")

	require.Equal(t, http.StatusOK, call(t, g.ts, "POST", "/v1/drafts/"+other+"/send-check", map[string]string{"text": gap}, &check))
	assert.Equal(t, drafts.VerdictStale, check.Verdict, "stale first, whatever else is found")
	assert.Contains(t, check.Reasons[0].Message, "billing/refunds-annual v6")
	assert.Len(t, check.Placeholders, 1, "the other findings travel with it")
}
