package evals_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/evals/dataset"
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

// Every customer message of the shipped set reads the same with any of those tails: the
// drafter, retrieval and triage see only what the customer wrote, so their answers cannot
// change with the mail client.
func TestShippedMailReadsTheSameBelowTheMessage(t *testing.T) {
	t.Parallel()
	f, err := os.Open("tickets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var tk dataset.Labelled
		if err := json.Unmarshal(sc.Bytes(), &tk); err != nil {
			t.Fatal(err)
		}
		for _, m := range tk.Messages {
			if m.Author != "customer" {
				continue
			}
			want := text.OwnText(m.Body)
			for i, tail := range mailTails {
				if got := text.OwnText(m.Body + tail); got != want {
					t.Errorf("%s with tail %d reads\n%q\nwant\n%q", tk.TicketID, i, got, want)
				}
			}
			n++
		}
	}
	if n < 500 {
		t.Fatalf("read %d customer messages; the shipped set has more", n)
	}
}
