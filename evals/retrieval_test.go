package evals

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/ticket"
)

// TestRetrievalFigures: a hit is a labelled document among the first k distinct documents,
// whichever of several labelled documents comes first; MRR counts the first ten.
func TestRetrievalFigures(t *testing.T) {
	t.Parallel()
	gold := []string{"b", "c"}
	assert.Equal(t, 2, firstGold([]string{"a", "a", "c", "b"}, gold), "distinct documents are counted, chunks of one are not")
	assert.Equal(t, 0, firstGold([]string{"a", "d"}, gold))
	f := figures([]int{1, 3, 0, 12})
	assert.Equal(t, RetrievalFigures{Tickets: 4, HitAt1: 0.25, HitAt5: 0.5, HitAt10: 0.5, MRR: (1 + 1.0/3) / 4}, f)
	assert.Equal(t, []string{"billing/refunds", "billing/refunds-de"}, goldDocs(&dataset.Expect{Answerable: true,
		Cite: []string{"billing/refunds@2", "billing/refunds@3", "billing/refunds-de@1"}}))
	assert.Empty(t, goldDocs(&dataset.Expect{Answerable: false, Cite: []string{"billing/refunds@2"}}))
}

// TestBM25Docs: the classic baseline ranks whole eligible documents by the query's words as
// written; a document not eligible for the ticket is never ranked.
func TestBM25Docs(t *testing.T) {
	t.Parallel()
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	doc := func(id, body string, plans []string) *policy.Version {
		return &policy.Version{DocID: id, Version: 1, Status: policy.StatusApproved, Title: id, Body: body,
			EffectiveFrom: &from, Plans: plans, Regions: []string{"*"}}
	}
	versions := []*policy.Version{
		doc("invoices", "download your invoice from the billing page", []string{"*"}),
		doc("refunds", "a refund of an annual plan is paid within 14 days; refund requests go to billing", []string{"*"}),
		doc("refunds-enterprise", "refund refund refund for enterprise contracts", []string{"enterprise"}),
		doc("seats", "add seats to your plan at any time", []string{"*"}),
	}
	tk := &dataset.Labelled{Ticket: ticket.Ticket{UpdatedAt: from.AddDate(1, 0, 0), Account: ticket.Account{Plan: "pro", Region: "eu"}}}
	ranked := bm25Docs(versions, tk, "Can I get a refund of my annual plan?")
	assert.Equal(t, "refunds", ranked[0])
	assert.NotContains(t, ranked, "refunds-enterprise")
	assert.Len(t, ranked, 3)
}
