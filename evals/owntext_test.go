package evals_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/text"
)

// What mail clients add below a customer's message: the receipt they reply to, quoted in
// the styles of Gmail (wrapped header), Outlook (header block) and a German client, and a
// closing with a signature and a confidentiality notice.
var mailTails = []string{
	"\n\nOn Mon, 2 Nov 2026 at 09:14, Billing <\nbilling@example.com> wrote:\n> Thanks for your payment of $1,188.00.\n> You can cancel or change your plan at any time.",
	"\n\n________________________________\nFrom: Billing <billing@example.com>\nSent: Monday, November 2, 2026 9:14 AM\nTo: Accounts\nSubject: Your receipt\n\nThanks for your payment. Refunds are available within 30 days.",
	"\n\nAm 02.11.2026 um 09:14 schrieb Billing <billing@example.com>:\n> Vielen Dank für Ihre Zahlung. Sie können jederzeit kündigen.",
	"\n\nKind regards,\nPriya Nair\nFinance Manager | Pixelmill Ltd\nCONFIDENTIAL: if you received this in error, please delete it and notify the sender.",
}

// Every customer message of the team's sets and the outside ones read the same with any of
// those tails: the drafter, retrieval and triage see only what the customer wrote, so
// their answers cannot change with the mail client.
func TestMailReadsTheSameBelowTheMessage(t *testing.T) {
	t.Parallel()
	n := 0
	for _, set := range []string{"tickets.jsonl", "handwritten/tickets.jsonl", "heldout/tickets.jsonl",
		"helpcenter/tickets.jsonl", "stackfaq/tickets.jsonl", "agents/payments/tickets.jsonl", "supabase/tickets.jsonl",
		"messages.jsonl", "agents/payments/messages.jsonl"} {
		for id, body := range customerBodies(t, set) {
			want := text.OwnText(body)
			for i, tail := range mailTails {
				if got := text.OwnText(body + tail); got != want {
					t.Errorf("%s %s with tail %d reads\n%q\nwant\n%q", set, id, i, got, want)
				}
			}
			n++
		}
	}
	if n < 1400 {
		t.Fatalf("read %d customer messages; the sets hold more", n)
	}
}

// customerBodies returns the customer messages of a tickets or inbound-messages file, by
// ticket or message ID (a thread's messages numbered after it).
func customerBodies(t *testing.T, set string) map[string]string {
	t.Helper()
	f, err := os.Open(set)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			TicketID  string `json:"ticket_id"`
			MessageID string `json:"message_id"`
			Body      string `json:"body"`
			Messages  []struct {
				Author, Body string
			} `json:"messages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		if line.MessageID != "" {
			out[line.MessageID] = line.Body
		}
		for i, m := range line.Messages {
			if m.Author == "customer" {
				out[fmt.Sprintf("%s#%d", line.TicketID, i)] = m.Body
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", set, err)
	}
	return out
}
