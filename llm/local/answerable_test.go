package local

import (
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
	"github.com/supportdraft/supportdraft/ticket"

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
	d := write(t, Extractive{}, llm.Request{Subject: "crypto",
		Messages: []llm.Message{{Author: "customer", Body: "Can we pay in Bitcoin or USDC?"}}, Evidence: threadEvidence})
	if !d.Abstain || !strings.Contains(d.Note, "bitcoin") {
		t.Fatalf("draft = %+v, want an abstention whose note names bitcoin", d)
	}
	if len(d.Unanswered) != 1 || !strings.Contains(d.Unanswered[0].Subject, "bitcoin") {
		t.Errorf("unanswered = %+v, want one entry whose subject is what no policy mentions", d.Unanswered)
	}
	answered(t, llm.Request{Subject: "overage", Evidence: threadEvidence, Messages: []llm.Message{
		{Author: "customer", Body: "How is storage over the quota billed on Team?"},
		{Author: "agent", Body: "Checking."},
		{Author: "customer", Body: "Any news? Thanks!"},
	}}, "$0.02 per GB", "the overage answer to the first message")
}

// A thread with one question the policies answer and one they do not gets a draft for the
// first and a note naming the second, so the agent knows what is left to write.
func TestPartialAnswerNamesTheOpenQuestion(t *testing.T) {
	t.Parallel()
	d := answered(t, llm.Request{Subject: "backups", Evidence: threadEvidence, Messages: []llm.Message{
		{Author: "customer", Body: "How long do you keep our backups after we cancel the plan?"},
		{Author: "customer", Body: "Also, can we pay with Alipay?"},
	}}, "30 days", "the backups answer")
	if !strings.Contains(d.Note, "Alipay") || strings.Contains(d.Note, "backups") {
		t.Errorf("note = %q, want it to name the Alipay question and only it", d.Note)
	}
	want := []llm.Unanswered{{Question: "Also, can we pay with Alipay?", Subject: "alipay"}}
	if !slices.Equal(d.Unanswered, want) {
		t.Errorf("unanswered = %+v, want %+v (the open question and what it asks about)", d.Unanswered, want)
	}
}

// A short question ("Timeline?") is about the sentence before it: a reply about that
// leaves nothing open.
func TestShortQuestionIsAboutTheSentenceBeforeIt(t *testing.T) {
	t.Parallel()
	d := answered(t, llm.Request{Subject: "backups", Evidence: threadEvidence, Messages: []llm.Message{
		{Author: "customer", Body: "We cancel the plan next week and worry about our backups. Timeline?"},
	}}, "30 days", "the backups answer")
	if len(d.Unanswered) != 0 || d.Note != "" {
		t.Errorf("unanswered = %+v, note %q: the backups answer answers the timeline question", d.Unanswered, d.Note)
	}
}

// What a customer asks is read without the parts of an email that ask nothing: the
// signature, reference numbers and workspace names, and typos of everyday words. None of
// them may make the drafter abstain on a question the evidence answers.
func TestAnsweringIgnoresSignaturesReferencesAndTypos(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"signature":  "How long do you keep our backups after we cancel?\n\nKind regards,\nPriya Okonkwo | Head of Procurement | Bluefin Analytics\nThis email and any attachments are confidential.",
		"references": "How long are backups kept after cancelling? (invoice INV-2026-55590, workspace quarry-coffee) https://quarry-coffee.example.app",
		"typos":      "hwo lnog do you keep teh backups if we cancle?",
		"lowercase":  "we are moving to another vendor. cancel today - how long do you keep our backups?",
	} {
		answersWith(t, name, body, threadEvidence, "30 days")
	}
}

// A reply whose sections hold no topic word of the question answers a different one (a
// chargeback section for a question about removing seats): offTopic names what was asked,
// and a reply that holds one of the question's topic words passes.
func TestOffTopicNamesWhatARelatedSectionLeavesOut(t *testing.T) {
	t.Parallel()
	asks := []string{"What happens to our bill when we remove seats mid-month?"}
	got := offTopic(asks, "What happens to the account\nAn account with an open chargeback stays active.")
	if !slices.Contains(got, text.Stem("seats")) {
		t.Errorf("offTopic = %v, want the seats it was asked about", got)
	}
	if got := offTopic(asks, "Removing seats\nRemoved seats are credited by the day."); got != nil {
		t.Errorf("offTopic = %v for a reply about seats, want nil", got)
	}
	if got := offTopic([]string{"Any news? Thanks!"}, "Backups are kept for 30 days."); got != nil {
		t.Errorf("offTopic = %v for a message that names no topic, want nil", got)
	}
}

// Coverage reads what each question asks for: the kind of answer (a duration for "how
// long", an amount for "how much") and the thing asked about, which a short question
// ("Is that refundable?") takes from the sentence before it and the subject line.
func TestCoverageReadsKindAndSubjectOfEachQuestion(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, question, good, bad string
	}{
		{name: "a short question is about the sentence before it",
			question: "Exchange rate loss\nOur bank converted the payment from yen and we lost money on the exchange. Is that refundable?",
			good:     "We do not refund losses from currency exchange made by your bank.",
			bad:      "Refunds go back to the original card within 10 business days."},
		{name: "how long wants a duration, not an amount",
			question: "Backup retention\nHow long are backups kept after we cancel?",
			good:     "Backups are kept for 60 days after the plan ends.",
			bad:      "Backups after the plan ends cost $3 per month."},
		{name: "how much wants an amount, not a duration",
			question: "Team seats\nHow much does an extra seat on Team cost?",
			good:     "An extra seat on Team costs €9 per month.",
			bad:      "An extra seat on Team is added within 1 hour."},
		{name: "a typo is still the word",
			question: "Wire\nDo you accept wire transfeers for annual plans?",
			good:     "Wire transfers are accepted for annual plans.",
			bad:      "Cards are accepted for annual plans."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			good := questionCoverage(c.question, c.good)
			bad := questionCoverage(c.question, c.bad)
			if good <= bad {
				t.Errorf("coverage of the answer %.2f, of the reply that misses %.2f: want the answer higher", good, bad)
			}
		})
	}
}

// A word the evidence holds misspelt is not missing, whatever the stemmer makes of it
// ("pyament" cut to "pya"), nor is a stopword with a letter doubled ("thiss").
func TestMisspeltWordsAreNotMissing(t *testing.T) {
	t.Parallel()
	if missing, share := missingConcepts("", []string{"Why did thiss pyament fail?"}, practiceSections(t)); len(missing) != 0 {
		t.Errorf("missingConcepts = %v (%.2f), want nothing missing", missing, share)
	}
}

// A German question's small talk ("Was passiert genau …?") holds back no more than the
// English one's ("What exactly happens …?"); a word of substance no section holds still does.
func TestGermanChatterIsNotMissing(t *testing.T) {
	t.Parallel()
	section := []policy.Evidence{{ChunkID: "zahlungen@1#fehlgeschlagen", Title: "Fehlgeschlagene Zahlungen",
		Text: "Fehlgeschlagene Zahlungen\nSchlägt eine Kartenzahlung fehl, versuchen wir sie 4 Mal über 10 Tage erneut. Danach wird der Arbeitsbereich gesperrt."}}
	for _, ask := range []string{"Was passiert genau nach einer fehlgeschlagenen Kartenzahlung? Wann wird gesperrt?",
		"Wie lange dauert es, bis der Arbeitsbereich gesperrt wird?",
		"Wie lange dauerrt es, bis der Arbeitsbereich gesperrt wird?"} { // a typo of German chatter, in German
		if missing, share := missingConcepts("", []string{ask}, section); len(missing) != 0 {
			t.Errorf("%q: missingConcepts = %v (%.2f), want nothing missing", ask, missing, share)
		}
	}
	if missing, _ := missingConcepts("", []string{"Was passiert genau mit unserem Rabatt?"}, section); !slices.Contains(missing, "rabatt") {
		t.Errorf("a discount question over a failed-payment section: missing %v, want rabatt", missing)
	}
	// German chatter is matched as written: "tier" and "press" are not typos of "vier" and "Preis".
	if missing, _ := missingConcepts("", []string{"Which tier includes the press kit?"}, section); !slices.Contains(missing, "tier") || !slices.Contains(missing, "press") {
		t.Errorf("an English question over a German section: missing %v, want tier and press", missing)
	}
}

// German writes as one word what English writes as two: a compound of words the evidence
// holds, or a part of one of the evidence's compounds, is held; a short word inside a
// longer one ("count" in "account") is not.
func TestCompoundParts(t *testing.T) {
	t.Parallel()
	spelt := surfaceWords("Nach der Kündigung kommt die Bestätigung per E-Mail. Zum Ende des Abrechnungszeitraums endet der Zugang. Your account owner")
	for w, want := range map[string]bool{
		"kündigungsbestätigung": true, "zeitraum": true, "abrechnung": true,
		"count": false, "rückgaberecht": false, "kündigungsfrist": false,
	} {
		if got := compoundHeld(w, spelt); got != want {
			t.Errorf("compoundHeld(%q) = %v, want %v", w, got, want)
		}
	}
}

// A stopword typed with two letters swapped, a letter doubled or a letter dropped names
// nothing; a short word of substance is not taken for one.
func TestTypoOfStopword(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]bool{
		"tihs": true, "thiss": true, "onl": true, "lik": true, "wat": true, "vil": true,
		"fee": false, "tax": false, "vat": false, "plan": false, "card": false, "seat": false,
	} {
		if got := typoOfStopword(w); got != want {
			t.Errorf("typoOfStopword(%q) = %v, want %v", w, got, want)
		}
	}
}

// A label that names a reference ("Ref:", "Order no.:", "Kundennummer:") is dropped with
// it: the words it is made of name a record, not what the customer asks about.
func TestMessageProperDropsReferencesWithTheirLabels(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]string{
		"Is the annual plan refundable? Ref: INV-2026-20181":                     "Is the annual plan refundable?",
		"Is it refundable and until when. Order no.: 88123 Thanks":               "Is it refundable and until when. Thanks",
		"Rechnung falsch. Kundennummer: A-42610, bitte korrigieren":              "Rechnung falsch. bitte korrigieren",
		"Note: the invoice INV-2026-1 shows the old address.":                    "Note: the invoice shows the old address.",
		"(invoice INV-2026-55590, workspace quarry-coffee) how long is it kept?": "(invoice workspace how long is it kept?",
	} {
		if got := messageProper(body); got != want {
			t.Errorf("messageProper(%q) = %q, want %q", body, got, want)
		}
	}
}

// A clause is read with the everyday names of a billing concept ("run out" is expire), as
// retrieval and ranking read it: word by word, "run" is a word no policy states.
func TestAskingClausesReadEverydayPhrases(t *testing.T) {
	t.Parallel()
	credits := []policy.Evidence{{ChunkID: "billing/credits@1#expiry", DocID: "billing/credits", Version: 1, Title: "Account credits", Area: "billing",
		Text: "## When credits expire\nCredits expire 6 months after they are issued."}}
	answersWith(t, "run out", "We got a credit when we changed plans. When does it run out?", credits, "6 months")
}

// A thank-you that opens a mail ends nothing: the question after it is what the drafter
// must answer (it once read "Hi," alone and judged the ticket by that). The body is read
// as the drafter gets it, through llm.RequestFromTicket.
func TestMessageProperKeepsTheQuestionAfterAnOpeningThankYou(t *testing.T) {
	t.Parallel()
	body := "Hi,\nThanks for your help last week.\nCan I get a refund for the annual plan?\n\nKind regards,\nPriya Nair\nFinance Manager"
	req := llm.RequestFromTicket(&ticket.Ticket{Messages: []ticket.Message{{Author: "customer", Body: body}}}, nil)
	want := []string{"Can I get a refund for the annual plan?"}
	if got := askingClauses(req.CustomerBodies()[0]); !slices.Equal(got, want) {
		t.Errorf("askingClauses = %q, want %q", got, want)
	}
}

// A request is an asking clause, read without its opener, whatever apostrophe or
// language it is written in; a statement of what happened is not, and neither is a
// courtesy request of one word.
func TestAskingClausesKeepRequests(t *testing.T) {
	t.Parallel()
	body := "We moved to another tool last month. I’d like to close the account. Please refund the last invoice. " +
		"Wir möchten den Tarif wechseln. Our card expired. Please advise."
	want := []string{"close the account.", "refund the last invoice.", "den Tarif wechseln."}
	if got := askingClauses(body); !slices.Equal(got, want) {
		t.Errorf("askingClauses = %q, want %q", got, want)
	}
}
