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
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/provenance"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/ticket"
)

var sampleCorpus = filepath.Join("..", "corpus", "sample")

func TestTraceCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want provenance.Outcome
	}{
		{[]string{"--plan", "pro", "--region", "eu", "--at", "2026-11-30", "30-day refund window"}, provenance.PresentContradicted},
		{[]string{"--plan", "pro", "--region", "eu", "--at", "2026-01-15T00:00:00Z", "30-day", "refund", "window"}, provenance.PresentEligible},
		{[]string{"--plan", "enterprise", "--region", "eu", "30-day refund window"}, provenance.PresentStale},
		{[]string{"--plan", "pro", "--region", "eu", "60-day money-back guarantee"}, provenance.Absent},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			out := mustRun(t, newTraceCmd(), append([]string{"--corpus", sampleCorpus, "--json"}, tt.args...)...)
			var res struct {
				Term               string                 `json:"term"`
				Outcome            provenance.Outcome     `json:"outcome"`
				Matches            []provenance.Match     `json:"matches"`
				EligibleStatements []provenance.Statement `json:"eligible_statements"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if res.Outcome != tt.want {
				t.Errorf("outcome %s, want %s", res.Outcome, tt.want)
			}
			if res.Matches == nil || res.EligibleStatements == nil {
				t.Errorf("matches and eligible_statements must be lists, not null:\n%s", out)
			}
		})
	}
}

func TestTraceCommandText(t *testing.T) {
	t.Parallel()
	out := mustRun(t, newTraceCmd(), "--corpus", sampleCorpus, "--plan", "pro", "--region", "eu", "--at", "2026-11-30",
		"30-day refund window")
	assertPrints(t, out,
		"OUTCOME: present_contradicted",
		"billing/refunds-annual@3", "superseded on 2026-03-01 by version 4",
		"helpcenter/annual-plan-refunds@1", `"one month" read as 30 days`,
		"for regions us,apac only",
		"What eligible versions say instead", "within 14 days",
		"Fix it at the document, not in the prompt",
	)
}

func TestTraceCommandUsageErrors(t *testing.T) {
	t.Parallel()
	tests := [][]string{
		{"--corpus", "testdata/nope", "30-day refund window"},
		{"--corpus", sampleCorpus, "--at", "yesterday", "30-day refund window"},
		{"--corpus", sampleCorpus, "the"},
	}
	for _, args := range tests {
		_, err, code := run(t, newTraceCmd(), args...)
		if code != 2 {
			t.Errorf("%v: exit %d (%v), want 2", args, code, err)
		}
	}
}

// TestTraceDraftAccount runs --draft against a real store: the draft was built for a Pro
// account, and the ticket now says Business. Not parallel: it sets DATABASE_URL.
func TestTraceDraftAccount(t *testing.T) {
	s := scratchDB(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for rev, plan := range map[int]string{1: "pro", 2: "business"} {
		tk := &ticket.Ticket{TicketID: "T-9", Revision: rev, UpdatedAt: at.Add(time.Duration(rev) * time.Hour),
			Account: ticket.Account{ID: "A-1", Plan: plan, Region: "eu"}, Subject: "Refund",
			Messages: []ticket.Message{{Author: "customer", At: at, Body: "Can I get a refund?"}}}
		if err := s.SaveTicket(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	rec := &drafts.Saved{TicketID: "T-9", Iteration: 1, Revision: 1, Status: drafts.StatusReady, EligibleAt: at,
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "Hello.", ModelReply: "Hello."}
	if err := s.SaveIteration(ctx, rec, "refunds"); err != nil {
		t.Fatal(err)
	}

	out := mustRun(t, newTraceCmd(), "--corpus", sampleCorpus, "--draft", "T-9", "--json", "30-day refund window")
	var res struct {
		Account      provenance.Account       `json:"account"`
		AccountCheck *provenance.AccountCheck `json:"account_check"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	c := res.AccountCheck
	if c == nil || len(c.Changes) != 1 || c.Changes[0] != (provenance.AccountChange{Field: "plan", Built: "pro", Now: "business"}) {
		t.Fatalf("account check %+v, want plan pro → business", c)
	}
	if c.DraftRevision != 1 || c.TicketRevision != 2 {
		t.Errorf("revisions %d → %d, want 1 → 2", c.DraftRevision, c.TicketRevision)
	}
	if res.Account.Plan != "business" || res.Account.Region != "eu" {
		t.Errorf("judged for %+v, want the account now (business, eu)", res.Account)
	}

	text := mustRun(t, newTraceCmd(), "--corpus", sampleCorpus, "--draft", "T-9", "30-day refund window")
	if !strings.Contains(text, `plan changed: the draft was built for "pro", the ticket now says "business"`) {
		t.Errorf("text output does not show the plan change:\n%s", text)
	}

	_, err, code := run(t, newTraceCmd(), "--corpus", sampleCorpus, "--draft", "T-nope", "30-day refund window")
	if code != 2 || !strings.Contains(err.Error(), "T-nope") {
		t.Errorf("unknown ticket: exit %d, err %v; want 2 naming the ticket", code, err)
	}
}

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
	s := scratchDB(t)
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
