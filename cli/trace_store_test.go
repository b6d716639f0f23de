package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/provenance"
	"github.com/supportdraft/supportdraft/review"
)

// giftCards is a policy that expired: an account could read it once, nothing replaced it.
const giftCards = `---
doc_id: billing/gift-cards
version: 1
status: approved
title: Gift cards
area: gift-cards
effective_from: 2025-01-01T00:00:00Z
effective_to: 2025-12-31T00:00:00Z
plans: ["*"]
regions: ["*"]
---
## Gift card refunds

Unused gift cards can be refunded within 60 days of purchase.
`

// trace over the live store: every stored version (a draft, a superseded and an expired
// one included) and the sent replies; each outcome is recorded for the admin page. The
// folder the versions came from is not read. Not parallel: it sets DATABASE_URL.
func TestTraceOverTheStoreRecordsEachOutcome(t *testing.T) {
	s, url := testdb.New(t)
	t.Setenv("DATABASE_URL", url)
	ctx := context.Background()
	versions, err := policy.ParseDir(filepath.Join("..", "provenance", "testdata", "outcomes"))
	require.NoError(t, err)
	gift, err := policy.Parse("gift-cards.md", []byte(giftCards))
	require.NoError(t, err)
	_, err = s.Import(ctx, append(versions, gift), testenv.Embedder)
	require.NoError(t, err)

	reply := "Hi,\n\nAnnual plans can be refunded in full within 14 days of purchase.\n\nBest, Sam"
	sentAt := time.Now().UTC().Add(-time.Hour)
	require.NoError(t, s.SaveIteration(ctx, &drafts.Saved{TicketID: "TR-1", Iteration: 1, Revision: 1, Status: drafts.StatusReady,
		EligibleAt: sentAt, Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: reply, ModelReply: reply}, "refunds"))
	require.NoError(t, s.RecordSent(ctx, &review.SentReply{TicketID: "TR-1", Iteration: 1, TextSHA256: review.TextHash(reply),
		Verdict: drafts.VerdictOK, SentAt: sentAt, Agent: "sam"}))

	for _, tc := range []struct {
		term string
		want provenance.Outcome
		sent int
	}{
		{"14-day refund window", provenance.PresentEligible, 1},
		{"30-day refund window", provenance.PresentContradicted, 0},
		{"60-day gift card refund", provenance.PresentStale, 0},
		{"loyalty credit of 10%", provenance.PresentNotEligible, 0},
		{"a refund for the hardware kit", provenance.Absent, 0}, // "refund" is everywhere; the kit nowhere
	} {
		out, err, code := run(t, newTraceCmd(), "--plan", "pro", "--region", "eu", "--locale", "en", "--json", tc.term)
		require.NoError(t, err, "exit %d", code)
		var res provenance.Result
		require.NoError(t, json.Unmarshal([]byte(out), &res), out)
		assert.Equal(t, tc.want, res.Outcome, "%s: %+v", tc.term, res.Matches)
		assert.Len(t, res.Sent, tc.sent, "%s: sent replies stating it", tc.term)
		assert.Equal(t, len(versions)+1, res.Versions, "every stored version, the draft included")
	}

	text, err, _ := run(t, newTraceCmd(), "--plan", "pro", "--region", "eu", "14-day refund window")
	require.NoError(t, err)
	assert.Contains(t, text, "Sent to customers (1 sentences):\n  TR-1 #1")

	recorded, err := s.Traces(ctx, 10)
	require.NoError(t, err)
	require.Len(t, recorded, 6)
	got := map[string]provenance.Outcome{}
	for _, r := range recorded {
		got[r.Term] = r.Outcome
		assert.Equal(t, "pro", r.Plan)
	}
	assert.Equal(t, provenance.PresentStale, got["60-day gift card refund"])
	assert.Equal(t, provenance.Absent, got["a refund for the hardware kit"])
	assert.Equal(t, "billing/refunds@2", recorded[0].FirstRef, "the newest first, naming where it was found")
	assert.Equal(t, 1, recorded[0].SentMatches)
}

// Bad flags are usage errors naming the flag; a store that cannot be reached says to give
// --corpus.
func TestTraceRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--plan", "pro plan", "x"}, `--plan "pro plan"`},
		{[]string{"--region", "eu;drop", "x"}, `--region "eu;drop"`},
		{[]string{"--at", "yesterday", "x"}, `--at "yesterday"`},
		{[]string{"--corpus", sampleCorpus, "  "}, "TERM is empty"},
	} {
		_, err, code := run(t, newTraceCmd(), tc.args...)
		require.Error(t, err, strings.Join(tc.args, " "))
		assert.Equal(t, 2, code)
		assert.Contains(t, err.Error(), tc.want)
	}
}
