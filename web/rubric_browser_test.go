package web_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testenv"
)

// The draft-quality rubric's five criteria stand beside the judge's scores on the review
// page, each with its score or why nothing scored it, and the offending span; the
// writer's category and reasoning are shown too. The sidebar's diagnostics carry the same.
func TestRubricScoresInABrowser(t *testing.T) {
	st := newStack(t)
	asked := time.Now().UTC().Add(-time.Hour)
	answered, abstained := testenv.Unique("RUBA-"), testenv.Unique("RUBN-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(answered, 1, asked, refundQuestion))
	st.post(t, auth.Agent, "/v1/drafts", testenv.Ticket(abstained, 1, "free", "apac", asked, "Can you send me a hoodie with your logo on it?"))

	ctx := testenv.Browser(t, 1280, 1000)
	within(t, ctx, "open the answered draft",
		chromedp.Navigate(st.signIn(t, auth.Reviewer, "/app/review?ticket="+url.QueryEscape(answered))), chromedp.WaitVisible(chromedp.ID("rubric")))
	rows := map[string]string{}
	for _, c := range []string{"forbidden_phrases", "human_sounding", "brand_vocabulary", "formatting", "tone"} {
		rows[c] = text(t, ctx, `#rubric tr[data-criterion="`+c+`"]`)
	}
	assert.Contains(t, rows["forbidden_phrases"], "Forbidden phrases")
	assert.Contains(t, rows["forbidden_phrases"], "1.00")
	assert.Contains(t, rows["formatting"], "1.00", "the drafter's greeting, body and sign-off keep the layout rules")
	assert.Contains(t, rows["human_sounding"], "not scored", "the local judge gives no made-up number")
	assert.Contains(t, rows["human_sounding"], "judge model")
	assert.Contains(t, text(t, ctx, "#rubric caption"), "billing-default@1")
	assert.Contains(t, text(t, ctx, "#category"), "refunds")
	assert.Contains(t, text(t, ctx, "#reasoning"), "Quoted")
	a11y(t, ctx)

	within(t, ctx, "open the abstained draft",
		chromedp.Navigate(st.URL+"/app/review?ticket="+url.QueryEscape(abstained)), chromedp.WaitVisible(chromedp.ID("rubric")))
	formatting := text(t, ctx, `#rubric tr[data-criterion="formatting"]`)
	assert.NotContains(t, formatting, "1.00", "an abstention has no sign-off")
	assert.Contains(t, formatting, "no sign-off")
	assert.Contains(t, text(t, ctx, "#reasoning"), "Abstained")
	screenshot(t, ctx, "review-rubric")

	within(t, ctx, "the sidebar's diagnostics",
		chromedp.Navigate(st.signIn(t, auth.Agent, "/app/tickets/"+url.PathEscape(answered))), chromedp.WaitVisible(chromedp.ID("editor")),
		chromedp.Click(chromedp.CSS("#diagnostics > summary")), chromedp.WaitVisible(chromedp.ID("rubric")))
	require.Contains(t, text(t, ctx, `#diagnostics #rubric tr[data-criterion="tone"]`), "Tone")
	assert.Contains(t, text(t, ctx, "#diagnostics #category"), "refunds")
}
