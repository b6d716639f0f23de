package activities_test

import (
	"context"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
)

// refundEvidence is what retrieval found for a refund question: a cancellation section on
// top, then mostly refund sections.
var refundEvidence = []policy.Evidence{
	{ChunkID: "cancel@1#notice", Area: "cancellation"},
	{ChunkID: "refunds@3#window", Area: "refunds"},
	{ChunkID: "refunds@3#exceptions", Area: "refunds"},
	{ChunkID: "invoices@2#credit-notes", Area: "invoices"},
}

// A refund ticket whose top chunk is about cancellation abstains under refunds: the area
// is voted by the whole retrieval, the chart and gaps count it there.
func TestAbstentionIsFiledUnderTheAreaMostEvidencePointsAt(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	area := activities.Area("", refundEvidence)
	rec := &drafts.Saved{TicketID: "T-refund", Iteration: 1, Revision: 1, Status: drafts.StatusAbstained, EligibleAt: time.Now(),
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: drafts.NoEvidenceReply, ModelReply: drafts.NoEvidenceReply,
		Abstained: true, Note: "No eligible policy mentions refunds for the hardware kit.\n" + drafts.AbstainNote}
	if err := s.SaveIteration(ctx, rec, area); err != nil {
		t.Fatal(err)
	}
	gaps, err := s.Gaps(ctx, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 1 || gaps[0].Area != "refunds" {
		t.Fatalf("gaps = %+v, want the abstention under refunds", gaps)
	}
	weeks, err := s.Abstentions(ctx, time.Now().Add(-24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(weeks) != 1 || weeks[0].Area != "refunds" {
		t.Errorf("abstention chart = %+v, want one refunds row", weeks)
	}
}

// The intake funnel's triage bucket names the area when it triaged the ticket; a ticket it
// found not about billing, or one opened from the sidebar, is voted by its evidence.
func TestAreaPrefersTheTriageBucket(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ bucket, want string }{
		{"cancellation", "cancellation"},
		{"not_billing", "refunds"},
		{"", "refunds"},
	} {
		if got := activities.Area(c.bucket, refundEvidence); got != c.want {
			t.Errorf("Area(%q) = %q, want %q", c.bucket, got, c.want)
		}
	}
	if got := activities.Area("", nil); got != "unknown" {
		t.Errorf("Area with no evidence = %q, want unknown", got)
	}
}
