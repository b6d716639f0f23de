package local

import (
	"context"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// The sentences below are from the help-center set's corpus (Plausible Analytics' public
// docs, evals/helpcenter/corpus), verbatim: text nobody on the team wrote.

func TestAsksSteps(t *testing.T) {
	t.Parallel()
	for clause, want := range map[string]bool{
		"How do I buy Enterprise?":                       true,
		"How can I add PO 4500123 to our invoices?":      true,
		"Where do I find the old invoices?":              true,
		"How long do you keep the export link?":          false, // a duration, not steps
		"How is it counted?":                             false,
		"Can I still export our data to CSV?":            false,
		"Ok, but how do we get the account back?":        true,
		"We tried to work out how to cancel last month.": false, // tells, does not ask
	} {
		if got := asksSteps([]string{clause}); got != want {
			t.Errorf("asksSteps(%q) = %v, want %v", clause, got, want)
		}
	}
}

func TestIsStep(t *testing.T) {
	t.Parallel()
	for sentence, want := range map[string]bool{
		"Go to the Subscription section and click Cancel plan.":                                                true,
		"Open any invoice and click Edit business address to update your street address, city or postal code.": true,
		"Click on the Add snippet button to go to the next step.":                                              true,
		"Paddle handles all sales tax calculations and will apply the correct rate based on your details.":     false, // a subject and its verb
		"Enterprise plans are not self-serve like Growth or Business.":                                         false,
		"Plausible is built to fit how agencies and freelancers actually work.":                                false,
		"Your dashboard is locked.":                         false,
		"If you missed this step, open any Paddle invoice.": false, // a condition first: not read as a step
	} {
		if got := isStep(sentence); got != want {
			t.Errorf("isStep(%q) = %v, want %v", sentence, got, want)
		}
	}
}

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
// quoted first.
func TestFusedOrderDecidesBetweenCloseSections(t *testing.T) {
	t.Parallel()
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
		d, err := Extractive{}.Write(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if d.Abstain || d.Claims[0].ChunkIDs[0] != order[0].ChunkID {
			t.Errorf("retrieval put %s first; the draft quotes %v first", order[0].ChunkID, d.Claims)
		}
	}
}

// A how-to question is answered by the step of the section, ahead of a sentence of the
// same section that shares as many of its words.
func TestHowToQuestionQuotesTheStep(t *testing.T) {
	t.Parallel()
	req := llm.Request{Subject: "cancel", Account: policy.Account{Plan: "growth", Region: "eu", Locale: "en"},
		Evidence: helpcenterSections[2:],
		Messages: []llm.Message{{Author: "customer", Body: "How do I cancel my subscription plan?"}}}
	d, err := Extractive{}.Write(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if d.Abstain || len(d.Claims) == 0 || !strings.HasPrefix(d.Claims[0].Quote, "Go to the Subscription section") {
		t.Fatalf("claims = %+v, want the step first", d.Claims)
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
