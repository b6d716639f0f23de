package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

// Send-check reads what will be sent against the sources eligible now for the account:
// invented commitments are unsupported (each sentence with its reason), a faithful
// paraphrase of current policy is ok, an empty body is a 400, and an override with a
// reason lets the send go ahead with the override on record.
func TestSendCheckGuardsTheTextSent(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	id := testenv.Unique("SC-")
	v := openDraft(t, ts, id, "Our annual Pro plan renewed five days ago. Can we still get a refund?")

	invented := "Hi, you get a 60-day money-back guarantee and we will credit you 50 EUR."
	var check drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": invented}, &check))
	assert.Equal(t, drafts.VerdictUnsupported, check.Verdict)
	require.Len(t, check.Unsupported, 1)
	assert.Equal(t, invented, check.Unsupported[0].Sentence)
	assert.Contains(t, check.Unsupported[0].Reason, "'guarantee'")
	assert.Contains(t, check.Unsupported[0].Reason, "50 money:EUR")
	assert.Equal(t, v.Iteration, check.Iteration, "the verdict names the iteration it judged")

	paraphrase := "Hi,\n\nYour annual Pro plan can still be refunded in full, since it renewed within the last 14 days. " +
		"The refund goes back to the original payment method within 5 to 10 business days.\n\nBest, Sam"
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": paraphrase}, &check))
	assert.Equal(t, drafts.VerdictOK, check.Verdict, "unsupported: %+v", check.Unsupported)

	var e struct{ Error string }
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", `{}`, &e))
	assert.Contains(t, e.Error, `"text"`)
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": "  \n "}, &e))

	reason := "goodwill credit approved by the billing lead in ticket BL-7"
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check",
		map[string]string{"text": invented, "override_reason": reason}, &check))
	assert.Equal(t, drafts.VerdictOK, check.Verdict, "an override lets the send go ahead when the draft is current")
	assert.Equal(t, reason, check.OverrideReason)
	require.Len(t, check.Unsupported, 1, "the overridden sentences stay on the answer")

	assert.Equal(t, []string{drafts.VerdictUnsupported, drafts.VerdictOK, drafts.VerdictOK}, sendChecks(t, s, id))
	var recorded string
	var unsupported []drafts.Unbacked
	require.NoError(t, s.Pool().QueryRow(context.Background(),
		`SELECT override_reason, unsupported FROM send_checks WHERE ticket_id = $1 ORDER BY id DESC LIMIT 1`, id).Scan(&recorded, &unsupported))
	assert.Equal(t, reason, recorded)
	assert.Equal(t, invented, unsupported[0].Sentence)
}

// A policy version approved after the draft makes the send hook answer stale, judged in
// the API; the workflow, told by its signal, turns the draft stale, as a read shows.
func TestSendCheckStaleByPolicyTurnsTheDraftStale(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	id := testenv.Unique("SP-")
	v := openDraft(t, ts, id, "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge, and how long does it take to reach our card?")
	require.Contains(t, v.Bound, drafts.BoundVersion{DocID: "billing/refunds-annual", Version: 4})

	importRefundsV6(t, s)

	var check drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": "Hi, thanks."}, &check))
	require.Equal(t, drafts.VerdictStale, check.Verdict)
	assert.Equal(t, v.Iteration, check.Iteration)
	assert.Contains(t, check.Reasons[0].Message, "policy billing/refunds-annual v6 approved at")
	require.Eventually(t, func() bool {
		var after workflows.DraftView
		return call(t, ts, "GET", "/v1/drafts/"+id, nil, &after) == http.StatusOK && after.Status == drafts.StatusStale
	}, 10*time.Second, 50*time.Millisecond, "the workflow records the stale verdict on the draft")
}

// An edit answers the guard's sentence-by-sentence checks, read back from the store by the
// text's ID; an edit or send-check that no draft takes leaves no kept text behind.
func TestEditTextKeptOnlyWhenADraftTakesIt(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	id := testenv.Unique("TXT-")
	openDraft(t, ts, id, "Our annual Pro plan renewed five days ago. Can we still get a refund?")

	var checked guard.Result
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/edit",
		map[string]string{"text": "Hi. We will refund you within 60 days."}, &checked))
	require.Len(t, checked.Sentences, 2)
	assert.Equal(t, "We will refund you within 60 days.", checked.Sentences[1].Text, "the API answers the checks with the words")
	assert.False(t, checked.Sentences[1].Kept, "no policy promises 60 days")

	unknown := testenv.Unique("NONE-")
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+unknown+"/edit", map[string]string{"text": "Hi there."}, nil))
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+unknown+"/send-check", map[string]string{"text": "Hi there."}, nil))
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/discard", nil, nil))
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+id+"/edit", map[string]string{"text": "Too late."}, nil), "the run has ended")

	var kept, orphans int
	require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE ticket_id = $1),
		count(*) FILTER (WHERE ticket_id = $2 OR text = 'Too late.') FROM agent_texts`, id, unknown).Scan(&kept, &orphans))
	assert.Equal(t, 1, kept, "the one edit the draft took")
	assert.Zero(t, orphans, "refused edits and send-checks leave no row")
}
