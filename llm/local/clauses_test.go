package local

import (
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// cancelSection is the help-center set's "What happens after you cancel" section
// (evals/helpcenter/corpus/cancel-subscription.v1.md) as the chunker cuts it: more
// sentences than a reply quotes, the one answering "what happens to the data it keeps
// sending" split over a two-sentence paragraph whose first sentence holds the duration.
var cancelSection = policy.Evidence{
	ChunkID: "plausible/cancel-subscription@1#what-happens-after-you-cancel", DocID: "plausible/cancel-subscription",
	Title: "Cancel your subscription plan", Area: "cancellation", Score: 0.41,
	Text: "What happens after you cancel\n" +
		"Until the end of your billing period\n" +
		"Your stats keep being counted and you have full access to your dashboard.\n" +
		"Once the billing period ends\n" +
		"Your dashboard is locked. You can still log in, access your account settings and site settings, but you cannot view your stats. You can export your collected data at any time from the site settings of any locked site.\n" +
		"One month after locking, Plausible stops collecting data. If you haven't removed the Plausible snippet from your site, any data it sends will be dropped automatically from that point.\n" +
		"Your data\n" +
		"Your data is not deleted immediately. How long it is kept depends on your plan. Retention periods are listed on the pricing page.\n" +
		"You can delete your data at any time, before or after canceling, either for individual sites or your entire account, from your site or account settings.",
}

// The sentence that answers an asking clause brings the other sentence of its short
// paragraph: "any data it sends will be dropped from that point" means nothing without
// "One month after locking, Plausible stops collecting data", which holds the answer.
func TestClauseSentenceBringsItsParagraph(t *testing.T) {
	t.Parallel()
	anyAnswer := Answerability{Weights: map[string]float64{}}
	req := llm.Request{Subject: "script after cancelling", Account: policy.Account{Plan: "growth", Region: "us", Locale: "en"},
		Evidence: []policy.Evidence{cancelSection},
		Messages: []llm.Message{{Author: "customer", Body: "We cancelled. Do we need to remove the script from our site? What happens to the data it keeps sending after the subscription ends?"}}}
	d := write(t, Extractive{Answerability: &anyAnswer}, req)
	if d.Abstain {
		t.Fatalf("abstained: %s", d.Reply)
	}
	for _, want := range []string{"One month after locking, Plausible stops collecting data.", "any data it sends will be dropped automatically"} {
		if !strings.Contains(d.Reply, want) {
			t.Errorf("reply lacks %q:\n%s", want, d.Reply)
		}
	}
	if n := len(d.Claims); n > maxQuoted {
		t.Errorf("%d sentences quoted, want at most %d", n, maxQuoted)
	}
}

// Each asking clause claims its own best sentence before the rest of the reply is filled
// by overall overlap, and a paragraph longer than maxParagraph is not quoted whole.
func TestClauseSentencesOnePerClause(t *testing.T) {
	t.Parallel()
	cands := []pick{
		{chunkID: "c", text: "Your dashboard is locked.", line: 1, pos: 0},
		{chunkID: "c", text: "You can still log in, access your account settings and site settings.", line: 1, pos: 1},
		{chunkID: "c", text: "You can export your collected data at any time from the site settings.", line: 1, pos: 2},
		{chunkID: "c", text: "Retention periods are listed on the pricing page.", line: 2, pos: 3},
	}
	asks := []string{"Can I still export my data?", "Where do I find the retention period?"}
	got := clauseSentences(cands, asks, evidenceIDF([]policy.Evidence{cancelSection}))
	if len(got) != 2 || got[0].pos != 2 || got[1].pos != 3 {
		t.Errorf("clauseSentences = %+v; want the export sentence, then the retention sentence", got)
	}
}

// A clause may claim its answer from another section of a document the reply quotes,
// though that section was not chosen: "who may cancel, and how" is answered under its own
// heading beside the section on annual plans. A sibling section adds nothing no clause
// claims, and a section about another subject of the question's class (monthly plans for
// an annual question) is no sibling.
func TestClauseClaimsFromAnotherSectionOfTheQuotedDocument(t *testing.T) {
	t.Parallel()
	doc := func(anchor, text string) policy.Evidence {
		return policy.Evidence{ChunkID: "billing/cancellation@1#" + anchor, DocID: "billing/cancellation", Title: "Cancelling a plan", Area: "cancellation", Text: text}
	}
	annual := doc("annual-plans", "Annual plans\nCancelling an annual plan turns off automatic renewal, and the plan stays active until the end of the paid year.")
	who := doc("who-can-cancel", "Who can cancel\nThe account owner or a billing admin cancels under Settings, Billing, Cancel subscription.")
	monthly := doc("monthly-plans", "Monthly plans\nCancelling a monthly plan ends it at the end of the month, and the owner gets an email.")
	export := doc("exports", "Exports\nAfter you cancel, the owner can still export invoices as a PDF.")
	evidence := []policy.Evidence{annual, monthly, who, export}
	asks := []string{"We are on an annual plan: when does it end if we cancel?", "Who on our team is allowed to cancel, and how?"}
	scope := newAccountScope(policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, evidence)
	q := analyseQuestion("Cancelling", asks, evidence, nil, false)
	q.topics = scope.topics(strings.Join(asks, "\n"))
	used := []rankedChunk{{ev: annual, asked: q}}
	siblings := siblingSections(used, evidence, scope)
	for _, s := range siblings {
		if s.ev.ChunkID == monthly.ChunkID {
			t.Errorf("the monthly-plans section is a sibling of an annual-plan answer")
		}
	}
	picks := pickSentences(append(used, siblings...), scope, asks, evidenceIDF(evidence))
	var quoted []string
	for _, p := range picks {
		quoted = append(quoted, p.text)
	}
	reply := strings.Join(quoted, "\n")
	if !strings.Contains(reply, "billing admin cancels") {
		t.Errorf("reply lacks who may cancel:\n%s", reply)
	}
	if strings.Contains(reply, "export invoices") {
		t.Errorf("reply quotes a sibling section no clause asked about:\n%s", reply)
	}
}

// A section of another document is quoted for an open clause only when its title or
// heading names something the thread asks about or it holds two of the clause's words.
// "What am I missing?" ranks a section on error codes that mentions "missing" in passing;
// a second question the first document leaves open ("Can we pay by PayPal instead?")
// still brings the section named for it.
func TestOpenClauseQuotesOnlyASectionNamedForTheThread(t *testing.T) {
	t.Parallel()
	anyAnswer := Answerability{Weights: map[string]float64{}}
	deleteCard := policy.Evidence{ChunkID: "billing/cards@1#delete-a-card", DocID: "billing/cards", Title: "Manage your cards", Area: "payments", Score: 0.5,
		Text: "Delete a card\nOn the billing page, open the card's menu and click Delete card. Add the new card before you delete the old card."}
	errorCodes := policy.Evidence{ChunkID: "api/status-codes@1#client-errors", DocID: "api/status-codes", Title: "HTTP status codes", Area: "api", Score: 0.3,
		Text: "Client errors\nThese could include missing or invalid auth information, a malformed request or too many requests."}
	paypal := policy.Evidence{ChunkID: "billing/paypal@1#paypal", DocID: "billing/paypal", Title: "Paying by PayPal", Area: "payments", Score: 0.3,
		Text: "PayPal\nYou can pay by PayPal on every paid plan from the billing page."}
	account := policy.Account{Plan: "pro", Region: "eu", Locale: "en"}
	ask := func(body string) *llm.Answer {
		return write(t, Extractive{Answerability: &anyAnswer}, llm.Request{Subject: "old card", Account: account,
			Evidence: []policy.Evidence{deleteCard, errorCodes, paypal},
			Messages: []llm.Message{{Author: "customer", Body: body}}})
	}
	cites := func(d *llm.Answer, chunkID string) bool {
		for _, c := range d.Claims {
			if c.ChunkIDs[0] == chunkID {
				return true
			}
		}
		return false
	}
	d := ask("I want to delete the old company card from billing but it won't let me delete the card. What am I missing?")
	if !cites(d, deleteCard.ChunkID) || cites(d, errorCodes.ChunkID) {
		t.Errorf("want the card section quoted and not the error codes:\n%s", d.Reply)
	}
	d = ask("I want to delete the old company card from billing but it won't let me delete the card. Can we pay by PayPal instead?")
	if !cites(d, deleteCard.ChunkID) || !cites(d, paypal.ChunkID) {
		t.Errorf("want the card section and the PayPal section quoted:\n%s", d.Reply)
	}
}
