package web

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
)

// The chip follows the draft's real state: an ending (with who and why) before a
// pull-back, staleness, abstention, a failed rebuild and low confidence, so a weak or
// finished draft never wears "ready".
func TestDraftStateChip(t *testing.T) {
	ready := drafts.Saved{Iteration: 2, Status: drafts.StatusReady, Confidence: 0.9}
	with := func(f func(*drafts.Saved)) *drafts.Saved { r := ready; f(&r); return &r }
	killedBy := &store.ReviewDecision{Entry: review.Entry{Iteration: 2, State: review.Killed, DecidedBy: "Ana"}, Reason: "wrong refund window"}
	pulledBy := &store.ReviewDecision{Entry: review.Entry{Iteration: 2, State: review.Pulled, DecidedBy: "Ana"}, Reason: "check VAT"}
	oldPull := &store.ReviewDecision{Entry: review.Entry{Iteration: 1, State: review.Pulled, DecidedBy: "Ana"}}
	for _, tc := range []struct {
		name   string
		draft  *drafts.Saved
		review *store.ReviewDecision
		label  string
		detail string
	}{
		{"ready", &ready, nil, "ready", "backed by policy"},
		{"low confidence", with(func(r *drafts.Saved) { r.Confidence = 0.30 }), nil, "low confidence", "Read every sentence"},
		{"abstained", with(func(r *drafts.Saved) { r.Abstained, r.Confidence = true, 0 }), nil, "no policy answer", "Write the reply yourself"},
		{"stale", with(func(r *drafts.Saved) { r.Status = drafts.StatusStale }), nil, "out of date", "Rebuild"},
		{"failed rebuild", with(func(r *drafts.Saved) { r.BuildError = "model down" }), nil, "rebuild failed", "before it"},
		{"failed first build", &drafts.Saved{Status: drafts.StatusFailed, BuildError: "model down"}, nil, "no draft", "could not be written"},
		{"pulled back", &ready, pulledBy, "pulled back", "Pulled back by Ana: check VAT"},
		{"a pull of an earlier iteration", &ready, oldPull, "ready", "backed by policy"},
		{"killed", with(func(r *drafts.Saved) { r.Status = drafts.StatusKilled }), killedBy, "killed", "Killed by Ana: wrong refund window"},
		{"discarded", with(func(r *drafts.Saved) { r.Status = drafts.StatusDiscarded }), nil, "discarded", "Start a new draft"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := draftState(tc.draft, tc.review)
			assert.Equal(t, tc.label, c.Label)
			assert.Contains(t, c.Detail, tc.detail)
		})
	}
	assert.Equal(t, "no claims: the draft abstained", confidenceWords(&drafts.Saved{Abstained: true}), "an abstention is not 'every claim is supported'")
}

// The funnel comes out in the order a message meets its stages, whatever order the
// counts come in, with the first stage's messages as the total; no messages, no table.
func TestFunnelInStageOrder(t *testing.T) {
	stages, inbound := funnel([]store.StageOutcome{
		{Stage: "draft", Outcome: "", Count: 2}, {Stage: "draft", Outcome: "started", Count: 2},
		{Stage: "filters", Outcome: "", Count: 5}, {Stage: "filters", Outcome: "skip", Count: 3}, {Stage: "filters", Outcome: "pass", Count: 2},
		{Stage: "duplicate", Outcome: "", Count: 6}, {Stage: "duplicate", Outcome: "skip", Count: 1}, {Stage: "duplicate", Outcome: "pass", Count: 5},
		{Stage: "triage", Outcome: "", Count: 2}, {Stage: "triage", Outcome: "failed_open", Count: 1}, {Stage: "triage", Outcome: "pass", Count: 1},
	})
	assert.Equal(t, 6, inbound)
	assert.Len(t, stages, len(funnelStages))
	assert.Equal(t, funnelStage{Label: "Seen before? (duplicate message)", Reached: 6, Passed: 5, Stopped: 1}, stages[0])
	assert.Equal(t, funnelStage{Label: "Automated mail or a block rule?", Reached: 5, Passed: 2, Stopped: 3}, stages[3])
	assert.Equal(t, 1, stages[5].Failures, "a failed triage is counted as a failure")
	assert.Equal(t, funnelStage{Label: "Draft started", Reached: 2, Drafted: 2}, stages[6])
	none, total := funnel(nil)
	assert.Empty(t, none)
	assert.Zero(t, total)
}

func TestPlainReason(t *testing.T) {
	for reason, want := range map[string]string{
		"not backed by a claim":                                                              "The draft cites no policy for this sentence.",
		"unresolved placeholder {{name}}":                                                    "It still has a placeholder to fill in.",
		"no eligible source states 60 days":                                                  "No policy in force for this account says this.",
		"quote not found in billing/refunds-annual@4#window":                                 "Its cited policy does not say this.",
		`says the opposite of billing/payment-methods@2: "We cannot accept wire transfers."`: "Policy in force says the opposite.",
		"it says this of all, but the eligible sources say it only of annual, pro":           "Policy in force says this only of some customers or plans.",
		"it says this holds at any time or as often as asked, but the eligible source refunds#3 bounds it (8 weeks): \"…\"": "Policy in force limits when or how often this applies.",
		`it reverses before and after: the eligible source trials#3 states it the other way round: "…"`:                     "Policy in force says it happens the other way round (before, not after).",
		`says of solo what billing/failed-payments@1#other-means says of others: "Team workspaces can pay."`:                "Policy in force says this of another plan or customer.",
	} {
		assert.Equal(t, want, plainReason(reason), reason)
		assert.NotContains(t, plainReason(reason), "@")
	}
}

func TestSentenceDiff(t *testing.T) {
	added, removed := sentenceDiff("Hi. Refunds take 5 days. Thanks.", "Hi. Refunds take 10 days. Thanks.")
	assert.Equal(t, []string{"Refunds take 10 days."}, added)
	assert.Equal(t, []string{"Refunds take 5 days."}, removed)
	added, removed = sentenceDiff("Same text.", "Same  text.")
	assert.Empty(t, added, "white space is no change")
	assert.Empty(t, removed)
}
