package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// TestGapsCommand reads a real rejection log. Not parallel: it sets DATABASE_URL.
func TestGapsCommand(t *testing.T) {
	s := scratchDB(t)
	ctx := context.Background()
	for i, area := range []string{"refunds", "refunds", "invoices"} {
		rec := &drafts.Saved{TicketID: "T-" + string(rune('1'+i)), Iteration: 1, Revision: 1, Status: drafts.StatusReady,
			EligibleAt: time.Now(), Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "x", ModelReply: "x",
			Sentences: []guard.SentenceResult{{Text: "Annual plans have a 30-day refund window.", Reason: "no eligible source states 30 day"}}}
		if err := s.SaveIteration(ctx, rec, area); err != nil {
			t.Fatal(err)
		}
	}
	// Two tickets ask about Alipay (an abstention, a partial answer's open question), one about cheques.
	for i, u := range []llm.Unanswered{{Subject: "alipay"}, {Question: "Can we pay with Alipay?", Subject: "alipay"},
		{Question: "Do you take cheques?", Subject: "cheques"}} {
		rec := &drafts.Saved{TicketID: "P-" + string(rune('1'+i)), Iteration: 1, Revision: 1, Status: drafts.StatusReady,
			EligibleAt: time.Now(), Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "x", ModelReply: "x",
			Abstained: u.Question == "", Note: "No eligible policy mentions alipay.", Unanswered: []llm.Unanswered{u}}
		if err := s.SaveIteration(ctx, rec, "payments"); err != nil {
			t.Fatal(err)
		}
	}

	out := mustRun(t, newGapsCmd())
	assertPrints(t, out, "refunds: 2 struck sentences in 2 tickets", "2× no eligible source states 30 day",
		`e.g. "Annual plans have a 30-day refund window."`, "invoices: 1 struck sentence in 1 ticket")
	if strings.Index(out, "refunds:") > strings.Index(out, "invoices:") {
		t.Errorf("most frequent area must come first:\n%s", out)
	}
	payments := out[strings.Index(out, "payments:"):]
	asked := strings.Index(payments, "asked about, most often first:")
	alipay, cheques := strings.Index(payments, "2× alipay"), strings.Index(payments, "1× cheques")
	if asked < 0 || alipay < asked || cheques < alipay {
		t.Errorf("payments must list what was asked about, alipay (2) before cheques (1):\n%s", payments)
	}
	if refunds := out[strings.Index(out, "refunds:"):strings.Index(out, "invoices:")]; strings.Contains(refunds, "asked about") {
		t.Errorf("areas with struck sentences only list no subjects:\n%s", out)
	}

	out = mustRun(t, newGapsCmd(), "--since", "7d", "--json")
	var got struct {
		Gaps []struct {
			Area  string `json:"area"`
			Count int    `json:"count"`
		} `json:"gaps"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Gaps) != 3 || got.Gaps[0].Area != "payments" || got.Gaps[0].Count != 3 {
		t.Errorf("JSON %s (err %v)", out, err)
	}

	if out = mustRun(t, newGapsCmd(), "--since", time.Now().Add(time.Hour).Format(time.RFC3339)); !strings.Contains(out, "No sentence was struck") {
		t.Errorf("future --since:\n%s", out)
	}
	if _, _, code := run(t, newGapsCmd(), "--since", "last week"); code != 2 {
		t.Errorf("bad --since: exit %d, want 2", code)
	}
}

func TestParseSince(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := map[string]time.Time{
		"":                     now.AddDate(0, 0, -30),
		"7d":                   now.AddDate(0, 0, -7),
		"72h":                  now.Add(-72 * time.Hour),
		"2026-11-01":           time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		"2026-11-01T08:00:00Z": time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC),
	}
	for in, want := range tests {
		got, err := parseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}
