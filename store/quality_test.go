package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/rubric"
)

// A draft keeps its rubric scores, category and reasoning; one saved without a rubric
// (before it existed) reads back with none rather than with zero scores.
func TestDraftKeepsRubricCategoryAndReasoning(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	reply := "Hi,\n\nUnfortunately the e-mail went out late.\n\nBest regards."
	scores := rubric.Default().Score(reply)
	r := drafts.Saved{TicketID: "T-RUBRIC", Revision: 1, Status: drafts.StatusReady, EligibleAt: time.Now().UTC(),
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: reply, CreatedAt: time.Now().UTC(),
		Rubric: &scores, Category: "refunds", Reasoning: "Quoted the annual refund window."}
	_, err := s.SaveBuild(ctx, &r, "refunds", "run/1")
	require.NoError(t, err)

	got, err := s.LatestIteration(ctx, "T-RUBRIC")
	require.NoError(t, err)
	assert.Equal(t, "refunds", got.Category)
	assert.Equal(t, "Quoted the annual refund window.", got.Reasoning)
	require.NotNil(t, got.Rubric)
	assert.Equal(t, scores, *got.Rubric)
	vocab := got.Rubric.Get(rubric.BrandVocabulary)
	require.Len(t, vocab.Findings, 1)
	assert.Equal(t, "e-mail", vocab.Findings[0].Span)
	assert.False(t, got.Rubric.Get(rubric.HumanSounding).Scored())

	old := r
	old.TicketID, old.Rubric, old.Category, old.Reasoning = "T-RUBRIC-OLD", nil, "", ""
	_, err = s.SaveBuild(ctx, &old, "refunds", "run/1")
	require.NoError(t, err)
	got, err = s.LatestIteration(ctx, "T-RUBRIC-OLD")
	require.NoError(t, err)
	assert.Nil(t, got.Rubric)
}
