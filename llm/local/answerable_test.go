package local

import (
	"context"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"

	"github.com/supportdraft/supportdraft/llm"
)

var threadEvidence = []policy.Evidence{
	{ChunkID: "billing/storage@1#overage", DocID: "billing/storage", Version: 1, Title: "Storage quotas and overage", Area: "storage",
		Text: "## Going over the quota\nOn Team, storage above the quota is billed at $0.02 per GB per month."},
	{ChunkID: "help/cancellation@1#backups", DocID: "help/cancellation", Version: 1, Title: "Cancelling your plan", Area: "cancellation",
		Text: "## Your backups after cancelling\nBackups are kept for 30 days after the plan ends."},
}

// A question asked in the first message is still open when the customer writes again:
// coverage counts both, and a reply that answers only the newest covers about half.
func TestCoverageCountsEveryQuestionOfTheThread(t *testing.T) {
	t.Parallel()
	req := llm.Request{Subject: "two questions", Messages: []llm.Message{
		{Author: "customer", Body: "How is storage overage billed on Team?"},
		{Author: "agent", Body: "Let me check."},
		{Author: "customer", Body: "Also, how long do you keep our backups if we cancel?"},
	}}
	q := req.Question()
	if !strings.Contains(q, "overage") || !strings.Contains(q, "backups") {
		t.Fatalf("Question() = %q, want both customer messages", q)
	}
	both := questionCoverage(q, "On Team, storage above the quota is billed at $0.02 per GB per month. Backups are kept for 30 days after the plan ends.")
	newest := questionCoverage(q, "Backups are kept for 30 days after the plan ends.")
	if both <= newest || newest > 0.75 {
		t.Errorf("coverage both %.2f, newest only %.2f: answering one of two questions must cover clearly less", both, newest)
	}
	noNumber := questionCoverage("How long do you keep our backups?", "Backups are kept after the plan ends.")
	withNumber := questionCoverage("How long do you keep our backups?", "Backups are kept for 30 days after the plan ends.")
	if noNumber >= withNumber {
		t.Errorf("a how-long question answered without a number covers %.2f, with one %.2f", noNumber, withNumber)
	}
}

// The drafter abstains, naming what is missing, when what the customer asks about is in
// no eligible policy; a thread's first question is answered even when the customer's last
// message asks nothing new.
func TestExtractiveAbstainsOnWhatNoPolicyMentions(t *testing.T) {
	t.Parallel()
	d, err := Extractive{}.Write(context.Background(), llm.Request{Subject: "crypto",
		Messages: []llm.Message{{Author: "customer", Body: "Can we pay in Bitcoin or USDC?"}}, Evidence: threadEvidence})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Abstain || !strings.Contains(d.Note, "bitcoin") {
		t.Fatalf("draft = %+v, want an abstention whose note names bitcoin", d)
	}
	d, err = Extractive{}.Write(context.Background(), llm.Request{Subject: "overage", Evidence: threadEvidence, Messages: []llm.Message{
		{Author: "customer", Body: "How is storage over the quota billed on Team?"},
		{Author: "agent", Body: "Checking."},
		{Author: "customer", Body: "Any news? Thanks!"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Abstain || !strings.Contains(d.Reply, "$0.02 per GB") {
		t.Errorf("reply = %q, want the overage answer to the first message", d.Reply)
	}
}
