package sendcheck_test

import (
	"errors"
	"testing"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/sendcheck"
)

// Decide's order: stale before anything else it finds (and the rest still travels with
// it), then placeholders, unsupported, the refusals, the review gate, a check that could
// not run, ok.
func TestDecideOrder(t *testing.T) {
	t.Parallel()
	stale := []drafts.StaleReason{{Kind: "policy", Message: "policy billing/refunds-annual v6 is now in force (the draft quotes v4)"}}
	holes := []string{"[Not covered by current policy: 1 sentence removed — please answer this part yourself.]"}
	unbacked := []drafts.Unbacked{{Sentence: "We refund 60 days.", Reason: "no source states 60 days"}}
	gate := (&review.Entry{State: review.Waiting, Confidence: 0.3, LowConfidence: true}).Gate()
	down := errors.New("connection refused")
	tests := []struct {
		name    string
		f       sendcheck.Findings
		verdict string
		refused bool
	}{
		{"stale wins over everything", sendcheck.Findings{Stale: stale, Placeholders: holes, Unbacked: unbacked, Review: gate, Guarded: true}, drafts.VerdictStale, false},
		{"placeholders", sendcheck.Findings{Placeholders: holes, Unbacked: unbacked, Review: gate, Guarded: true}, drafts.VerdictBlocked, false},
		{"placeholders with no draft", sendcheck.Findings{Placeholders: holes, Missing: "no draft"}, drafts.VerdictBlocked, false},
		{"unsupported", sendcheck.Findings{Unbacked: unbacked, Review: gate, Guarded: true}, drafts.VerdictUnsupported, false},
		{"unsupported overridden, gate holds", sendcheck.Findings{Unbacked: unbacked, OverrideReason: "billing lead agreed", Review: gate, Guarded: true}, drafts.VerdictReviewPending, false},
		{"stale of an ended draft is refused", sendcheck.Findings{Stale: stale, Missing: "draft was sent"}, "", true},
		{"no draft", sendcheck.Findings{Missing: "no draft", Guarded: true}, "", true},
		{"review pending", sendcheck.Findings{Review: gate, Guarded: true}, drafts.VerdictReviewPending, false},
		{"check failed", sendcheck.Findings{CheckErr: down}, drafts.VerdictUnchecked, false},
		{"guard failed", sendcheck.Findings{}, drafts.VerdictUnchecked, false},
		{"ok", sendcheck.Findings{Guarded: true}, drafts.VerdictOK, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, refused := sendcheck.Decide(tt.f)
			if (refused != nil) != tt.refused {
				t.Fatalf("refused = %v, want refused %v", refused, tt.refused)
			}
			if res.Verdict != tt.verdict {
				t.Fatalf("verdict = %q, want %q", res.Verdict, tt.verdict)
			}
		})
	}
	res, _ := sendcheck.Decide(sendcheck.Findings{Stale: stale, Placeholders: holes, Unbacked: unbacked, Guarded: true})
	if len(res.Reasons) != 1 || len(res.Placeholders) != 1 || len(res.Unsupported) != 1 {
		t.Errorf("a stale verdict keeps what else was found: %+v", res)
	}
	res, _ = sendcheck.Decide(sendcheck.Findings{Review: gate, Guarded: true})
	if len(res.Review) != 1 || res.Review[0].Kind != "low_confidence" || res.MustAct != drafts.ReviewerRole {
		t.Errorf("review_pending says why and who acts: %+v", res)
	}
}

// The gate holds a draft that must be reviewed until a reviewer clears it.
func TestGate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		e    review.Entry
		want int
	}{
		{review.Entry{State: review.Waiting, Confidence: 0.9}, 0},
		{review.Entry{State: review.Waiting, Confidence: 0.3, LowConfidence: true}, 1},
		{review.Entry{State: review.Pulled, ForcedReview: "rule", Confidence: 0.3, LowConfidence: true}, 2},
		{review.Entry{State: review.Approved, ForcedReview: "rule"}, 0},
		{review.Entry{State: review.Overridden, ForcedReview: "rule"}, 0},
		{review.Entry{State: review.HandedOff, LowConfidence: true}, 0},
	} {
		if got := len(tt.e.Gate()); got != tt.want {
			t.Errorf("%+v: %d reasons, want %d", tt.e, got, tt.want)
		}
	}
}
