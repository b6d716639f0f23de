package store_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/rubric"
)

// Saving an iteration again (an activity retry, or a build replayed after its worker died
// between Save and the end of its workflow task) rewrites that iteration: one row per
// (ticket, iteration), the last save's content, each struck sentence logged once.
func TestSaveIterationIsIdempotent(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	r := readyDraft("T-SAVE", "first", time.Now().UTC())
	r.Sentences = []guard.SentenceResult{{Text: "We refund within 60 days.", Reason: "no eligible source states 60 days"}}
	require.NoError(t, s.SaveIteration(ctx, r, "refunds"))
	r.Reply = "second"
	require.NoError(t, s.SaveIteration(ctx, r, "refunds"))

	var rows, rejections int
	require.NoError(t, s.DB().QueryRow(ctx, `SELECT (SELECT count(*) FROM drafts WHERE ticket_id = 'T-SAVE'),
		(SELECT count(*) FROM rejections WHERE ticket_id = 'T-SAVE')`).Scan(&rows, &rejections))
	assert.Equal(t, 1, rows)
	assert.Equal(t, 1, rejections)
	latest, err := s.LatestIteration(ctx, "T-SAVE")
	require.NoError(t, err)
	assert.Equal(t, "second", latest.Reply)
}

// SaveBuild numbers a build's draft at save time. The same build saved again (replayed
// after its worker died between the save and the end of its workflow task) keeps its row
// and its number; another build of the run gets the next number, and so does a build of a
// later run, after every iteration saved before it, numbered by SaveBuild or not.
func TestSaveBuildNumbersEachBuildOnce(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	r := readyDraft("T-BUILD", "first", time.Now().UTC())
	r.Sentences = []guard.SentenceResult{{Text: "We refund within 60 days.", Reason: "no eligible source states 60 days"}}
	save := func(key string) int {
		t.Helper()
		n, err := s.SaveBuild(ctx, r, "refunds", key)
		require.NoError(t, err)
		return n
	}
	assert.Equal(t, 1, save("run-a/1"))
	r.Reply = "first, replayed"
	assert.Equal(t, 1, save("run-a/1"), "the replayed build keeps its number")
	assert.Equal(t, 2, save("run-a/2"))
	old := *r
	old.Iteration = 3 // a run from before build keys numbered its own
	require.NoError(t, s.SaveIteration(ctx, &old, "refunds"))
	assert.Equal(t, 4, save("run-b/1"), "a new run numbers after the old run's iterations")
	assert.Equal(t, 4, save("run-b/1"))

	rows, err := s.DB().Query(ctx, `SELECT iteration, reply, coalesce(build_key, '') FROM drafts WHERE ticket_id = 'T-BUILD' ORDER BY iteration`)
	require.NoError(t, err)
	type row struct {
		iteration  int
		reply, key string
	}
	var got []row
	for rows.Next() {
		var x row
		require.NoError(t, rows.Scan(&x.iteration, &x.reply, &x.key))
		got = append(got, x)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []row{{1, "first, replayed", "run-a/1"}, {2, "first, replayed", "run-a/2"},
		{3, "first, replayed", ""}, {4, "first, replayed", "run-b/1"}}, got)
	var rejections int
	require.NoError(t, s.DB().QueryRow(ctx, `SELECT count(*) FROM rejections WHERE ticket_id = 'T-BUILD' AND iteration = 1`).Scan(&rejections))
	assert.Equal(t, 1, rejections, "the replayed build's struck sentence is logged once")
}

// Builds of one ticket saved at the same time get distinct numbers, none lost: the
// per-ticket lock keeps a second build from taking, and overwriting, the first's number.
func TestSaveBuildNumbersConcurrentBuildsApart(t *testing.T) {
	s, _ := testdb.New(t)
	ctx := context.Background()
	const builds = 8
	var wg sync.WaitGroup
	got := make([]int, builds)
	errs := make([]error, builds)
	for i := range builds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = s.SaveBuild(ctx, readyDraft("T-RACE", fmt.Sprint("build ", i), time.Now().UTC()), "refunds", fmt.Sprintf("run/%d", i))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	slices.Sort(got)
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8}, got)
	var rows int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(DISTINCT reply) FROM drafts WHERE ticket_id = 'T-RACE'`).Scan(&rows))
	assert.Equal(t, builds, rows, "every build kept its own row")
}

// The send hook reads the newest iteration's summary: its bindings and how many
// sentences were struck. A draft saved with no sentences at all (JSON null) reads as
// none struck, not as an error that would turn every check on it into "unchecked".
func TestSendCheckSummaryCountsStruckSentences(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	r := readyDraft("T-SUM", "Hello.", time.Now().UTC())
	require.NoError(t, s.SaveIteration(ctx, r, "refunds"))
	st := s.StartSendCheck(ctx, "T-SUM", "Hi.", time.Now())
	require.NoError(t, st.DraftErr)
	assert.Equal(t, 0, st.Draft.Struck)

	r.Iteration = 2
	r.Sentences = []guard.SentenceResult{{Text: "Hello.", Kept: true}, {Text: "We refund within 60 days.", Reason: "no eligible source states 60 days"}}
	require.NoError(t, s.SaveIteration(ctx, r, "refunds"))
	st = s.StartSendCheck(ctx, "T-SUM", "Hi.", time.Now())
	require.NoError(t, st.DraftErr)
	assert.Equal(t, 2, st.Draft.Iteration)
	assert.Equal(t, 1, st.Draft.Struck)
}

// A draft keeps its rubric scores, category and reasoning; one saved without a rubric
// (before it existed) reads back with none rather than with zero scores.
func TestDraftKeepsRubricCategoryAndReasoning(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	reply := "Hi,\n\nUnfortunately the e-mail went out late.\n\nBest regards."
	scores := rubric.Default().Score(reply)
	r := readyDraft("T-RUBRIC", reply, time.Now().UTC())
	r.Rubric, r.Category, r.Reasoning = &scores, "refunds", "Quoted the annual refund window."
	_, err := s.SaveBuild(ctx, r, "refunds", "run/1")
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

	old := *r
	old.TicketID, old.Rubric, old.Category, old.Reasoning = "T-RUBRIC-OLD", nil, "", ""
	_, err = s.SaveBuild(ctx, &old, "refunds", "run/1")
	require.NoError(t, err)
	got, err = s.LatestIteration(ctx, "T-RUBRIC-OLD")
	require.NoError(t, err)
	assert.Nil(t, got.Rubric)
}
