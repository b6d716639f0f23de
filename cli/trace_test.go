package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/provenance"
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
			out, err, _ := run(t, newTraceCmd(), append([]string{"--corpus", sampleCorpus, "--json"}, tt.args...)...)
			if err != nil {
				t.Fatal(err)
			}
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
	out, err, _ := run(t, newTraceCmd(), "--corpus", sampleCorpus, "--plan", "pro", "--region", "eu", "--at", "2026-11-30",
		"30-day refund window")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"OUTCOME: present_contradicted",
		"billing/refunds-annual@3", "superseded on 2026-03-01 by version 4",
		"helpcenter/annual-plan-refunds@1", `"one month" read as 30 days`,
		"for regions us,apac only",
		"What eligible versions say instead", "within 14 days",
		"Fix it at the document, not in the prompt",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
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
	s, url := testdb.New(t)
	t.Setenv("DATABASE_URL", url)
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

	out, err, _ := run(t, newTraceCmd(), "--corpus", sampleCorpus, "--draft", "T-9", "--json", "30-day refund window")
	if err != nil {
		t.Fatal(err)
	}
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

	text, err, _ := run(t, newTraceCmd(), "--corpus", sampleCorpus, "--draft", "T-9", "30-day refund window")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `plan changed: the draft was built for "pro", the ticket now says "business"`) {
		t.Errorf("text output does not show the plan change:\n%s", text)
	}

	_, err, code := run(t, newTraceCmd(), "--corpus", sampleCorpus, "--draft", "T-nope", "30-day refund window")
	if code != 2 || !strings.Contains(err.Error(), "T-nope") {
		t.Errorf("unknown ticket: exit %d, err %v; want 2 naming the ticket", code, err)
	}
}
