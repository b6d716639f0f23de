package inbox

import (
	"context"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/policy"
)

// practiceSections are sections of the practice corpus (Quokka Backup's billing policy,
// written outside the team), verbatim.
func practiceSections(t *testing.T) []policy.Evidence {
	return llmtest.Evidence(t, "practice.json")
}

// A message the cue classifier finds no billing topic in, but that most of one eligible
// section speaks to, is drafted for review; a product question that shares a word or two
// with the policy stays not billing.
func TestGroundDraftsForReviewWhatPolicyAnswers(t *testing.T) {
	billing := &Message{Subject: "Quota", Body: "Backups are no longer uploading since we reached our quota. Is anything billed for the extra storage?"}
	tr, err := Classifier{}.Triage(context.Background(), billing)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Bucket != BucketNotBilling {
		t.Fatalf("the classifier put the quota question in %q; the test needs a message its cues miss", tr.Bucket)
	}
	got := Ground(tr, billing, practiceSections(t), nil)
	if !got.Unsure || !strings.Contains(got.Reason, "going-over-the-quota") {
		t.Errorf("grounded triage = %+v, want unsure (drafted for review) citing the quota section", got)
	}

	product := &Message{Subject: "Restore is slow", Body: "Restoring a 200 GB backup takes 9 hours. Is that normal?"}
	tr, err = Classifier{}.Triage(context.Background(), product)
	if err != nil {
		t.Fatal(err)
	}
	if got := Ground(tr, product, practiceSections(t), nil); got.Unsure || got.Bucket != BucketNotBilling {
		t.Errorf("grounded triage of a product question = %+v, want not billing, not unsure", got)
	}
}

// The bucket of an unsure message is the one its closest section's area and title name.
func TestSectionBucketReadsAreaAndTitle(t *testing.T) {
	for _, c := range []struct {
		section, want string
	}{
		{"how-to-cancel", BucketCancellation},
		{"retries", BucketPaymentFailed},
		{"going-over-the-quota", ""},
	} {
		ev := llmtest.Section(t, practiceSections(t), c.section)
		if got := sectionBucket(ev, nil); got != c.want {
			t.Errorf("sectionBucket(%s) = %q, want %q", ev.ChunkID, got, c.want)
		}
	}
}

// A request sent through a team list is drafted for review, a list's newsletter is not.
func TestListRequestTellsARequestFromANewsletter(t *testing.T) {
	request := &Message{From: Address{Email: "finance-team@halcyon.example"}, Headers: map[string]string{"Precedence": "list", "List-Id": "<finance-team.halcyon.example>"},
		Subject: "VAT number on invoices", Body: "Hi, please add our VAT number to our invoices from now on. Thanks"}
	newsletter := &Message{From: Address{Email: "news@tallpines.example"}, Headers: map[string]string{"Precedence": "list"},
		Subject: "Autumn edition", Body: "Our autumn update: new office and new team members. Click here to unsubscribe."}
	bulk := &Message{From: Address{Email: "digest@saas.example"}, Headers: map[string]string{"List-Id": "<digest>", "List-Unsubscribe": "<mailto:u@saas.example>"},
		Subject: "Digest", Body: "Can you guess this week's top pricing page?"}
	if !ListRequest(request) {
		t.Error("a team list's request was not recognised")
	}
	if ListRequest(newsletter) || ListRequest(bulk) {
		t.Error("a newsletter was taken for a request")
	}
	if r := Filters(request, nil); r.Outcome != OutcomeReview || r.Stage != StageUnsure {
		t.Errorf("Filters(team list request) = %+v, want review at stage unsure", r)
	}
}

// Two of a message's specific words in a section's document title or heading are
// evidence on their own, however much else the message says; the same words in the body
// alone are not.
func TestGroundReadsTitleAndHeading(t *testing.T) {
	msg := &Message{Subject: "Question", Body: "Colleagues in other offices keep telling stories about quotas and overage " +
		"for companies that grow quickly over the summer, and what applies to ours?"}
	tr := &Triage{NeedsResponse: true, Bucket: BucketNotBilling, Reason: "no cue"}
	sections := []policy.Evidence{
		{ChunkID: "billing/storage@1#billing-above-the-quota", Title: "Quota and overage", Area: "storage",
			Text: "Billing above the quota\nStorage above the quota is billed at $0.02 per GB, measured on the highest daily usage."},
		llmtest.Section(t, practiceSections(t), "how-to-cancel"), llmtest.Section(t, practiceSections(t), "retries"),
	}
	if got := Ground(tr, msg, sections, nil); !got.Unsure {
		t.Fatalf("two title words shared: got %+v, want drafted for review", got)
	}
	sections[0].Title, sections[0].Text = "Storage", "Extra usage\nStorage above the quota is billed with overage at $0.02 per GB, measured on the highest daily usage."
	sections[0].ChunkID = "billing/storage@1#extra-usage"
	if got := Ground(tr, msg, sections, nil); got.Unsure {
		t.Fatalf("the same words in the body only: got %+v, want not billing", got)
	}
}
