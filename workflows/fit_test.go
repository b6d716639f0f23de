package workflows_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/workflows"
)

// The probe's finding (issue 43, item 3): a reply built for an account the ticket does not
// fit quoted the chargeback macro, faithfully and covering every word of the question, at
// a confidence above the review threshold. An enterprise account in the US has no refund
// policy in the sample corpus, so the macro is the only source that speaks of refunds: the
// reply is faithful and covers the question, and its low fit holds it below the threshold
// and in the review queue, marked.
func TestDraftThatDoesNotFitTheTicketIsHeldForReview(t *testing.T) {
	quote := "While the dispute is open, we cannot issue a refund for the same charge, because your bank may already return the amount to you and you would be refunded twice."
	h := newHarness(t, testenv.Scripted{Reply: llm.Answer{Reply: "Hi,\n\n" + quote,
		Claims: []llm.Claim{{Sentence: quote, ChunkIDs: []string{"macros/chargeback-acknowledgement@1#reply-wording"}, Quote: quote}}}})
	tk := testenv.Ticket("T-FIT", 1, "enterprise", "us", now, "Hi, can you refund the charge?")
	tk.Subject = "Refund of the charge"
	opened := h.buildOnce(tk)

	r := h.latest("T-FIT")
	require.Equal(t, 0, r.Unsupported, "the quote is verbatim and kept: %+v", r.Sentences)
	assert.Less(t, r.Scores.Fit, drafts.LowFit)
	uncapped := h.acts.Calibration.Apply(drafts.Confidence(r.Scores, r.Unsupported))
	require.GreaterOrEqual(t, uncapped, drafts.ReviewThreshold, "without the cap the draft would pass review: %+v", r.Scores)
	assert.Less(t, r.Confidence, drafts.ReviewThreshold)
	require.NotNil(t, opened.Review)
	assert.True(t, opened.Review.LowConfidence, "queued for review: %+v", opened.Review)
	gate := opened.Review.Gate()
	require.Len(t, gate, 1)
	assert.Equal(t, "low_confidence", gate[0].Kind)
}

// A ticket answered from its own policy fits it: the cap leaves the confidence as calibrated.
func TestDraftThatFitsTheTicketKeepsItsConfidence(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-FITS", 1, "pro", "eu", now, refundQuestion))
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-FITS", 1)

	r := h.latest("T-FITS")
	assert.GreaterOrEqual(t, r.Scores.Fit, drafts.LowFit)
	assert.InDelta(t, h.acts.Calibration.Apply(drafts.Confidence(r.Scores, r.Unsupported)), r.Confidence, 1e-9)
	assert.GreaterOrEqual(t, r.Confidence, drafts.ReviewThreshold)
}
