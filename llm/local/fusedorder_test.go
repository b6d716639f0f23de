package local

import (
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// The sections below are from the help-center set's corpus (Plausible Analytics' public
// docs, evals/helpcenter/corpus), verbatim: text nobody on the team wrote.

// helpcenterSections are two sections of the help center's cancellation page and one of
// its theme page, verbatim: retrieval put the first first for "If I cancel today, does the
// dashboard go dark right away?", where the drafter's own overlap preferred the theme.
var helpcenterSections = []policy.Evidence{
	{ChunkID: "plausible/cancel-subscription@1#what-happens-after-you-cancel", DocID: "plausible/cancel-subscription",
		Title: "Cancel your subscription", Area: "cancellation", Score: 0.41,
		Text: "What happens after you cancel\nUntil the end of your billing period your stats keep being counted and you have full access to your dashboard. Once the billing period ends your dashboard is locked."},
	{ChunkID: "plausible/dashboard-appearance@1#choose-between-dark-or-light-theme", DocID: "plausible/dashboard-appearance",
		Title: "Dashboard appearance", Area: "dashboard", Score: 0.38,
		Text: "Choose between dark or light theme\nPlausible Analytics supports both light and dark design themes. We follow your system theme by default but logged in users can manually choose either system, dark or light theme in the account settings."},
	{ChunkID: "plausible/cancel-subscription@1#cancel-your-subscription-plan", DocID: "plausible/cancel-subscription",
		Title: "Cancel your subscription", Area: "cancellation", Score: 0.35,
		Text: "Cancel your subscription plan\nGo to the Subscription section and click Cancel plan. You can delete your data at any time, before or after canceling, from your site or account settings."},
}

// The fused retrieval order decides between sections that match a question about as well:
// the theme section shares "dashboard" and "dark" with the question in its title and
// heading, the cancellation section "cancel" and "end"; whichever retrieval put first is
// quoted first. The answerability model is left out (a threshold of 0): it rightly holds
// back the theme section, and this test is about the order sections are tried in.
func TestFusedOrderDecidesBetweenCloseSections(t *testing.T) {
	t.Parallel()
	anyAnswer := Answerability{Weights: map[string]float64{}}
	after, theme, plan := helpcenterSections[0], helpcenterSections[1], helpcenterSections[2]
	for _, order := range [][]policy.Evidence{{after, theme, plan}, {theme, after, plan}} {
		evidence := make([]policy.Evidence, len(order))
		for i, ev := range order {
			ev.Score = 0.4 - 0.02*float64(i) // scores fall with the fused rank, as retrieval returns them
			evidence[i] = ev
		}
		req := llm.Request{Subject: "If I cancel today", Account: policy.Account{Plan: "growth", Region: "eu", Locale: "en"},
			Evidence: evidence,
			Messages: []llm.Message{{Author: "customer", Body: "If I cancel today, does the dashboard go dark right away? I need the stats for a report at the end of the month."}}}
		d := write(t, Extractive{Answerability: &anyAnswer}, req)
		if d.Abstain || d.Claims[0].ChunkIDs[0] != order[0].ChunkID {
			t.Errorf("retrieval put %s first; the draft quotes %v first", order[0].ChunkID, d.Claims)
		}
	}
}

func TestRankShareAndOrderedEvidence(t *testing.T) {
	t.Parallel()
	if rankShare(0, orderRankHalf) != 1 || rankShare(int(orderRankHalf), orderRankHalf) != 0.5 {
		t.Errorf("rankShare: first %v, at the half %v; want 1 and 0.5", rankShare(0, orderRankHalf), rankShare(4, orderRankHalf))
	}
	if !retrievalOrdered(helpcenterSections) {
		t.Error("scored evidence must read as retrieval-ordered")
	}
	unscored := []policy.Evidence{{ChunkID: "a"}, {ChunkID: "b"}}
	if retrievalOrdered(unscored) {
		t.Error("evidence without scores has no retrieval order")
	}
}
