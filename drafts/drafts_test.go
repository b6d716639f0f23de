package drafts

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

func TestConfidenceWeightsAndCaps(t *testing.T) {
	t.Parallel()
	perfect := llm.Scores{Faithfulness: 1, Coverage: 1, Fit: 1}
	cases := []struct {
		name        string
		scores      llm.Scores
		unsupported int
		want        float64
	}{
		{"weights 0.6 / 0.2 / 0.2", llm.Scores{Faithfulness: 0.5, Coverage: 1, Fit: 0}, 0, 0.5},
		{"perfect and fully supported", perfect, 0, 1},
		{"one unsupported claim caps at 0.5", perfect, 1, 0.5},
		{"two unsupported claims cap at 0.3", perfect, 2, 0.3},
		{"a low score stays below the cap", llm.Scores{Faithfulness: 0.2}, 3, 0.12},
		{"out-of-range scores are clamped", llm.Scores{Faithfulness: 7, Coverage: -1, Fit: 1}, 0, 0.8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.want, Confidence(tc.scores, tc.unsupported), 1e-9)
		})
	}
}

// The review threshold is chosen with the calibration map: a refitted map that names
// another threshold fails here until the constant follows it.
func TestReviewThresholdIsTheCalibrationMapsChoice(t *testing.T) {
	r := calibration.Default().Review
	if assert.NotNil(t, r, "calibration/confidence.json names no review threshold") {
		assert.Equal(t, r.Threshold, ReviewThreshold)
	}
}

func TestCapFitHoldsALowFitBelowTheReviewThreshold(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 0.95, CapFit(0.95, llm.Scores{Fit: LowFit}), "fit at the line: untouched")
	assert.Equal(t, 0.3, CapFit(0.3, llm.Scores{Fit: 0.35}), "already below the cap: untouched")
	assert.Less(t, CapFit(0.99, llm.Scores{Fit: LowFit - 0.001}), ReviewThreshold)
	assert.InDelta(t, ReviewThreshold/2, CapFit(0.99, llm.Scores{Fit: LowFit / 2}), 1e-9, "in proportion to the fit")
	assert.Equal(t, 0.0, CapFit(0.99, llm.Scores{Fit: -1}))
}

func TestVerifySpans(t *testing.T) {
	t.Parallel()
	evidence := []policy.Evidence{{ChunkID: "billing/refunds@4#window", Text: "Annual plans can be refunded\nwithin 14 days of purchase."}}
	checks := VerifySpans([]llm.Claim{
		{Sentence: "ok", ChunkIDs: []string{"billing/refunds@4#window"}, Quote: "refunded within 14  days"},
		{Sentence: "unknown", ChunkIDs: []string{"billing/refunds@3#window"}, Quote: "refunded within 30 days"},
		{Sentence: "not verbatim", ChunkIDs: []string{"billing/refunds@4#window"}, Quote: "refunded within 30 days"},
		{Sentence: "no chunk", Quote: "x"},
	}, evidence)
	assert.True(t, checks[0].SpanOK, "whitespace is normalised, nothing else")
	assert.Contains(t, checks[1].Failure, "not in the eligible retrieved set")
	assert.Contains(t, checks[2].Failure, "does not occur verbatim")
	assert.Equal(t, "cites no policy chunk", checks[3].Failure)
}

func TestStalenessSaysWhatChangedAndWhen(t *testing.T) {
	t.Parallel()
	replied := time.Date(2026, 4, 2, 9, 13, 0, 0, time.UTC)
	approved := time.Date(2026, 4, 2, 11, 40, 0, 0, time.UTC)
	bound := &Summary{Revision: 1, Plan: "pro", Region: "eu",
		Bound: []BoundVersion{{DocID: "billing/refunds-annual", Version: 4}, {DocID: "billing/vat", Version: 2}}}

	assert.Empty(t, Staleness(bound, SendTimeState{Revision: 1, Plan: "pro", Region: "eu",
		Versions: map[string]CurrentVersion{"billing/refunds-annual": {Version: 4}, "billing/vat": {Version: 2}}}))

	reasons := Staleness(bound, SendTimeState{Revision: 2, RevisionAt: replied, Plan: "business", Region: "eu",
		Versions: map[string]CurrentVersion{"billing/refunds-annual": {Version: 5, ApprovedAt: &approved}}})
	var messages []string
	for _, r := range reasons {
		messages = append(messages, r.Message)
	}
	assert.Equal(t, []string{
		"customer replied at 2026-04-02 09:13 UTC (revision 2; the draft was built for revision 1)",
		"policy billing/refunds-annual v5 approved at 2026-04-02 11:40 UTC (the draft quotes v4)",
		"policy billing/vat v2 is no longer in force for this account, and no version replaces it",
		"plan changed from pro to business",
	}, messages)
}
