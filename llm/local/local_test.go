package local_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// extractive drafts req with the extractive drafter and fails the test if it returns an
// error.
func extractive(t *testing.T, req llm.Request) *llm.Answer {
	t.Helper()
	d, err := local.Extractive{}.Write(context.Background(), req)
	require.NoError(t, err)
	return d
}

// replyHolds fails the test unless d answers, and checks that its reply holds every string
// of want and none of wantNot: the check most table-driven drafting tests end with.
func replyHolds(t *testing.T, d *llm.Answer, want, wantNot []string) {
	t.Helper()
	require.False(t, d.Abstain, "note %q, reply %q", d.Note, d.Reply)
	for _, w := range want {
		assert.Contains(t, d.Reply, w)
	}
	for _, w := range wantNot {
		assert.NotContains(t, d.Reply, w)
	}
}

// score is the rule judge's scores of reply to question over ev; an error fails the test.
func score(t *testing.T, question, reply string, ev []policy.Evidence) llm.Scores {
	t.Helper()
	s, err := local.RuleJudge{}.Score(context.Background(), question, reply, ev)
	require.NoError(t, err)
	return s
}

func TestExtractiveQuotesVerbatim(t *testing.T) {
	t.Parallel()
	ev := llmtest.Evidence(t, "evidence.json")
	req := llmtest.CustomerRequest("Refund for my annual plan",
		"Hi, I bought the annual plan last week and we no longer need it. Can I get a refund?", llmtest.ProEU, ev)

	d := extractive(t, req)
	require.False(t, d.Abstain, d.Reply)
	require.NotEmpty(t, d.Claims)
	assert.LessOrEqual(t, len(d.Claims), 3)

	texts := map[string]string{}
	for _, e := range ev {
		texts[e.ChunkID] = e.Text
	}
	for _, c := range d.Claims {
		require.Len(t, c.ChunkIDs, 1)
		assert.Contains(t, texts[c.ChunkIDs[0]], c.Quote, "quote must be verbatim from its chunk")
		assert.Equal(t, c.Quote, c.Sentence)
		assert.Contains(t, d.Reply, c.Sentence)
	}
	assert.Equal(t, "billing/refunds-annual@4#refund-window", d.Claims[0].ChunkIDs[0])
	assert.Contains(t, d.Reply, "14 days")
	assert.True(t, strings.HasPrefix(d.Reply, "Hi,\n\n"), d.Reply)
	assert.True(t, strings.HasSuffix(d.Reply, "If anything is unclear, just reply to this email."), d.Reply)
	assert.Empty(t, d.Found, "the extractive drafter never searches")
}

// Some lines of a section are not the company's statements and are never quoted, though
// they sit among sentences that answer the question.
func TestExtractiveQuotesOnlyStatements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body   string
		ev           policy.Evidence
		quoted, left []string
	}{
		{name: "a template slot, which the guard strikes whoever wrote it", // the reply would carry a false "not covered" note
			body: "How do I make a custom search engine the default one?",
			ev: policy.Evidence{ChunkID: "search/custom@1#url", Title: "Custom search engines",
				Text: "Custom search URL\nEnter https://www.google.com/search?q=%s&gl=us as the search URL of the new engine. " +
					"The custom search engine is free on every plan and can be made the default engine in Settings."},
			quoted: []string{"can be made the default engine"}, left: []string{"%s"}},
		{name: "a sentence of a heading of two, the customer's words in a FAQ",
			body: "My card payment failed, what happens now?",
			ev: policy.Evidence{ChunkID: "billing/faq@1#my-payment-failed-what-now", Title: "Billing FAQ",
				Text: "My payment failed. What now?\nA failed payment is retried after 3 days, and the workspace stays active meanwhile."},
			quoted: []string{"retried after 3 days"}, left: []string{"My payment failed"}},
		{name: "a pointer whose link lost its address, alone or ending a list item", // one holding its address is quoted
			body: "Does the Enterprise plan include single sign-on for us and our guests, and how long does setting it up take?",
			ev: policy.Evidence{ChunkID: "help/enterprise@1#sso", Title: "Enterprise plan",
				Text: "Single sign-on\nEnterprise includes single sign-on through SAML 2.0. See SSO documentation. " +
					"Single sign-on is set up for you within 5 business days, see https://example.com/sso for the steps.\n" +
					"- Single sign-on for guests: guests sign in with SAML 2.0 too. See guest access.\n" +
					"Click here for the single sign-on setup form."},
			quoted: []string{"through SAML 2.0", "https://example.com/sso", "guests sign in with SAML 2.0 too."},
			left:   []string{"See SSO documentation", "See guest access", "Click here"}},
		{name: "a subsection's title without the line it names", // before it, it says when or for what that holds
			body: "Can we cancel the marketplace subscription?",
			ev: policy.Evidence{ChunkID: "help/marketplace@1#faq", Title: "Marketplace FAQ",
				Text: "FAQ\nThe payment for the marketplace subscription fails\nSee the payment guide.\n" +
					"How to cancel your marketplace subscription\nYou can cancel a marketplace subscription within 48 hours of purchase.",
				Subheadings: []string{"The payment for the marketplace subscription fails", "How to cancel your marketplace subscription"}},
			quoted: []string{"How to cancel your marketplace subscription. You can cancel a marketplace subscription within 48 hours"},
			left:   []string{"The payment for the marketplace subscription fails"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ev := []policy.Evidence{tt.ev}
			d := extractive(t, llmtest.CustomerRequest(tt.ev.Title, tt.body, llmtest.ProEU, llmtest.Retrieved(tt.body, ev)))
			replyHolds(t, d, tt.quoted, tt.left)
		})
	}
}

// A request said as a statement names what the short question after it asks about: "I want
// to cancel our Pro plan. What are the steps?" asks for the steps of cancelling, not for
// the first steps of setting up.
func TestExtractiveReadsARequestAsAsking(t *testing.T) {
	t.Parallel()
	ev := []policy.Evidence{
		{ChunkID: "help/cancel@1#how-do-i-cancel", DocID: "help/cancel", Title: "Cancel your subscription",
			Text: "How do I cancel?\nOpen Settings, then Billing, and click Cancel plan. The plan stays active until the end of the period."},
		{ChunkID: "help/invoices@1#download", DocID: "help/invoices", Title: "Invoices",
			Text: "Download\nEvery invoice can be downloaded as a PDF from the billing page."},
		{ChunkID: "help/setup@1#first-steps", DocID: "help/setup", Title: "Getting started",
			Text: "First steps\nThe first steps are to invite your team and connect your calendar."},
	}
	body := "Hey team,\n\nI want to cancel our Pro plan. What are the steps?\n\nKind regards,"
	d := extractive(t, llmtest.CustomerRequest("Quick question", body, llmtest.ProEU, llmtest.Retrieved(body, ev)))
	require.False(t, d.Abstain, d.Reply)
	assert.Contains(t, d.Reply, "click Cancel plan")
}

// A German question about a document that exists only in English is answered from it:
// German billing words are read as the English ones (the glossary of package text).
func TestExtractiveAnswersGermanQuestionFromEnglishPolicy(t *testing.T) {
	t.Parallel()
	ev := llmtest.Evidence(t, "evidence.json")
	req := llmtest.CustomerRequest("Rechnung herunterladen", "Wo kann ich unsere Rechnungen herunterladen?",
		policy.Account{Plan: "pro", Region: "eu", Locale: "de"}, ev)

	d := extractive(t, req)
	require.False(t, d.Abstain, d.Reply)
	assert.Equal(t, "billing/invoices@2#downloading-invoices", d.Claims[0].ChunkIDs[0])
	assert.True(t, strings.HasPrefix(d.Reply, "Hi,"), "the quoted policy is English, so is the reply: %s", d.Reply)
}

func TestExtractiveAbstainsOffTopic(t *testing.T) {
	t.Parallel()
	ev := llmtest.Evidence(t, "evidence.json")
	req := llmtest.CustomerRequest("Login problem",
		"The password reset link never arrives and I cannot sign in to the mobile app.", llmtest.ProEU, ev)

	d := extractive(t, req)
	assert.True(t, d.Abstain)
	assert.Empty(t, d.Claims)
	assert.Contains(t, d.Reply, "No current approved policy covers this question")
}

func TestExtractiveAbstainsWithoutEvidence(t *testing.T) {
	t.Parallel()
	d := extractive(t, llmtest.CustomerRequest("Refund", "Can I get a refund?", llmtest.ProEU, nil))
	assert.True(t, d.Abstain)
}

// The fixed abstention line says that no policy answers; it is not a policy statement.
// However many of its words the evidence holds, it must not make an abstention look
// faithful, and so confident.
func TestRuleJudgeDoesNotCountTheAbstentionLineAsFaithful(t *testing.T) {
	t.Parallel()
	d := extractive(t, llmtest.CustomerRequest("Hoodie", "Can you send me a hoodie?", llmtest.ProEU, nil))
	require.True(t, d.Abstain)
	ev := []policy.Evidence{{ChunkID: "billing/contact@1#team", Title: "Billing team",
		Text: "No current approved policy covers gifts; the question needs a reply from a member of the billing team."}}
	assert.Zero(t, score(t, "Can you send me a hoodie?", d.Reply, ev).Faithfulness)
}

func TestExtractiveIsDeterministic(t *testing.T) {
	t.Parallel()
	ev := llmtest.Evidence(t, "evidence.json")
	req := llmtest.CustomerRequest("Invoice", "How do I download an invoice, and can I change the company name on it?", llmtest.ProEU, ev)
	first := extractive(t, req)
	require.False(t, first.Abstain)
	for range 20 {
		again := extractive(t, req)
		require.Equal(t, first, again)
	}
	assert.Equal(t, "billing/invoices@2#downloading-invoices", first.Claims[0].ChunkIDs[0])
}

func TestExtractiveGerman(t *testing.T) {
	t.Parallel()
	de := policy.Account{Plan: "pro", Region: "eu", Locale: "de"}
	ev := llmtest.Evidence(t, "evidence_de.json")
	req := llmtest.CustomerRequest("Erstattung", "Kann mein Jahresplan nach dem Kauf erstattet werden?", de, ev)
	d := extractive(t, req)
	require.False(t, d.Abstain, d.Reply)
	assert.True(t, strings.HasPrefix(d.Reply, "Hallo,\n\n"), d.Reply)
	assert.Contains(t, d.Reply, "innerhalb von 14 Tagen")

	// English evidence for a German account keeps the English frame: no mixed reply.
	en := extractive(t, llmtest.CustomerRequest("Refund", "Can I get a refund on my annual plan?", de, llmtest.Evidence(t, "evidence.json")))
	assert.True(t, strings.HasPrefix(en.Reply, "Hi,"), en.Reply)
}

// The fixed lines must give the guard nothing to strike.
func TestExtractiveFrameHasNoCommitments(t *testing.T) {
	t.Parallel()
	commitment := regexp.MustCompile(`(?i)\d|refund|credit|cancel|waive|extend|upgrade|downgrade|guarantee|compensate|\bwill\b|erstatt|gutschrift|kündig`)
	ev := llmtest.Evidence(t, "evidence.json")
	for _, req := range []llm.Request{
		llmtest.CustomerRequest("Refund", "Can I get a refund on my annual plan?", llmtest.ProEU, ev),
		llmtest.CustomerRequest("Login", "I cannot sign in.", llmtest.ProEU, ev),
		llmtest.CustomerRequest("Login", "Ich kann mich nicht anmelden.", policy.Account{Plan: "pro", Region: "eu", Locale: "de"}, nil),
	} {
		d := extractive(t, req)
		frame := d.Reply
		for _, c := range d.Claims {
			frame = strings.Replace(frame, c.Sentence, "", 1)
		}
		assert.False(t, commitment.MatchString(frame), "frame %q", frame)
	}
}

func TestRuleJudgeVerdicts(t *testing.T) {
	t.Parallel()
	chunk := llmtest.Evidence(t, "evidence.json")[0].Text
	tests := []struct {
		name, sentence, quote string
		want                  llm.Verdict
		reason                string
	}{
		{"verbatim sentence", "Annual plans can be refunded in full within 14 days of purchase.",
			"Annual plans can be refunded in full within 14 days of purchase.", llm.VerdictSupports, "verbatim"},
		{"paraphrase with the same number", "You can get a full refund within 14 days of purchase.",
			"Annual plans can be refunded in full within 14 days of purchase.", llm.VerdictSupports, "14 days"},
		{"whitespace and case normalised", "Annual plans can be refunded in full within 14 days of purchase.",
			"annual plans  can be\nREFUNDED in full within 14 days of purchase.", llm.VerdictSupports, "verbatim"},
		{"written-out number", "Annual plans are refunded in full within fourteen days of purchase.",
			"Annual plans can be refunded in full within 14 days of purchase.", llm.VerdictSupports, "fourteen days) is in the quote"},
		{"different number, verbatim quote", "Annual plans can be refunded within 30 days of purchase.",
			"Annual plans can be refunded in full within 14 days of purchase.", llm.VerdictContradicts, "14 days where the sentence states 30 days"},
		{"invented window, made-up quote", "You have a 30-day refund window.",
			"Refunds are available for 30 days.", llm.VerdictContradicts, "not found verbatim"},
		{"made-up quote, no number", "We can waive the fee for you.",
			"Fees can be waived on request.", llm.VerdictNotEnough, "not found verbatim"},
		{"empty quote", "Annual plans can be refunded in full within 14 days of purchase.",
			"", llm.VerdictNotEnough, "not found verbatim"},
		{"number the quote lacks", "Refunds go back to the original payment method within 3 days.",
			"Refunds go back to the original payment method", llm.VerdictNotEnough, "does not state 3 days"},
		{"quote on another subject", "PayPal is accepted for annual plans.",
			"Annual plans can be refunded in full within 14 days of purchase.", llm.VerdictNotEnough, "covers only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			j, err := local.RuleJudge{}.JudgeClaim(context.Background(), tc.sentence, tc.quote, chunk)
			require.NoError(t, err)
			assert.Equal(t, tc.want, j.Verdict, j.Reasoning)
			assert.Contains(t, j.Reasoning, tc.reason)
		})
	}
}

func TestRuleJudgeScore(t *testing.T) {
	t.Parallel()
	ev := llmtest.Evidence(t, "evidence.json")
	question := "Refund for my annual plan\nCan I get a refund on my annual plan?"

	d := extractive(t, llmtest.CustomerRequest("Refund for my annual plan", "Can I get a refund on my annual plan?", llmtest.ProEU, ev))
	good := score(t, question, d.Reply, ev)
	assert.Equal(t, 1.0, good.Faithfulness)
	assert.Greater(t, good.Coverage, 0.7)
	assert.InDelta(t, 0.82, good.Fit, 1e-9)

	lying := "Hi,\n\nAnnual plans can be refunded in full within 14 days of purchase. We also offer a 30-day money-back guarantee on every plan.\n\nBest regards"
	assert.InDelta(t, 0.5, score(t, question, lying, ev).Faithfulness, 1e-9)
	assert.Zero(t, score(t, question, "Hi,\n\nBest regards", ev).Faithfulness)

	// Without retrieval scores, fit falls back to lexical overlap.
	unscored := append([]policy.Evidence(nil), ev...)
	for i := range unscored {
		unscored[i].Score = 0
	}
	assert.Greater(t, score(t, question, d.Reply, unscored).Fit, 0.5)
	offTopic := score(t, "How do I reset my password?", d.Reply, unscored)
	assert.Less(t, offTopic.Fit, 0.3)
	assert.Less(t, offTopic.Coverage, 0.3)
}

// The refund window answers the question, and only it is quoted: not a section written
// for agents, nor a section of another document for words of the question the window
// lacks (the subject line's "invoice address"), whatever its area, when it answers no
// asking clause the window leaves open.
func TestExtractiveQuotesOneTopic(t *testing.T) {
	t.Parallel()
	window := policy.Evidence{ChunkID: "billing/refunds@1#refund-window", DocID: "billing/refunds", Version: 1,
		Title: "Refunds on annual plans", Area: "refunds", Text: "Refund window\nAnnual plans can be refunded in full within 14 days of purchase.", Score: 0.7}
	tests := []struct {
		name, subject, body string
		others              []policy.Evidence
	}{
		{"agents' notes and another area", "Refund", "How long do I have to get a refund on my annual plan?", []policy.Evidence{
			{ChunkID: "macros/dispute@1#notes-for-agents", DocID: "macros/dispute", Version: 1, Title: "Dispute macro",
				Area: "chargebacks", Text: "Notes for agents\nDo not promise a refund in a dispute ticket.", Score: 0.9},
			{ChunkID: "billing/invoices@1#invoice-emails", DocID: "billing/invoices", Version: 1, Title: "Invoices",
				Area: "invoices", Text: "Invoice emails\nThe refund receipt arrives by email within 1 hour.", Score: 0.7},
		}},
		{"the same area, words of the subject line", "Invoice address and refund", "How long after purchase can I get a refund on my annual plan?", []policy.Evidence{
			{ChunkID: "billing/invoices@1#address", DocID: "billing/invoices", Version: 1, Title: "Invoices",
				Area: "refunds", Text: "Invoice address\nThe address on an invoice is the billing address of the workspace at the time of purchase.", Score: 0.6},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ev := append([]policy.Evidence{window}, tc.others...)
			d := extractive(t, llmtest.CustomerRequest(tc.subject, tc.body, llmtest.ProEU, ev))
			require.False(t, d.Abstain, d.Reply)
			for _, c := range d.Claims {
				assert.Equal(t, window.ChunkID, c.ChunkIDs[0], d.Reply)
			}
			assert.Contains(t, d.Reply, "14 days")
			assert.NotContains(t, d.Reply, "Refund window\n")
		})
	}
}

// A list item quoted without its full stop must not run into the next quoted sentence:
// the guard reads the reply sentence by sentence, and a sentence made of two sources'
// words is backed by neither, so it would be struck with both facts in it.
func TestQuotedListItemEndsItsSentence(t *testing.T) {
	t.Parallel()
	ev := []policy.Evidence{
		{ChunkID: "export@1#all", DocID: "export", Version: 1, Title: "Export your stats", Score: 0.6,
			Text: "Export all stats\n- Go to the site settings and click Export to CSV\n- We email you when the export is ready. You'll have 24 hours to download the export"},
		{ChunkID: "downloads@1#note", DocID: "downloads", Version: 1, Title: "File downloads", Score: 0.5,
			Text: "Export downloads\nHeads up: an export download link works only once per export."},
	}
	req := llmtest.CustomerRequest("export link expired",
		"I got the email that my export was ready, but now the export download link does not work. How long is the export download kept?", llmtest.ProEU, ev)
	d := extractive(t, req)
	require.False(t, d.Abstain, d.Reply)
	require.Contains(t, d.Reply, "24 hours to download the export.")

	vocab, err := guard.DefaultVocabulary()
	require.NoError(t, err)
	in := guard.Input{Reply: d.Reply, Sources: ev, Mode: guard.ModeDraft}
	for _, c := range d.Claims {
		in.Claims = append(in.Claims, guard.Claim{Sentence: c.Sentence, SourceIDs: c.ChunkIDs, Quote: c.Quote})
	}
	res := vocab.Check(in)
	assert.Zero(t, res.Struck, "struck from %q: %+v", d.Reply, res.Sentences)
	assert.Contains(t, res.Reply, "24 hours")
}

// The writer never quotes a section marked audience: agents in its front matter, on a
// help-center page nobody on the team wrote: the same question is answered from that
// section when it is not marked, and not from it when it is.
func TestExtractiveNeverQuotesASectionForAgents(t *testing.T) {
	t.Parallel()
	const path = "../../evals/helpcenter/corpus/billing.v1.md"
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	head, body, _ := strings.Cut(string(data), "\nowner: plausible-docs\n")
	const vat = "plausible/billing@1#how-do-i-add-my-vat-number"
	question := "I forgot to add our VAT number at checkout. How do I add my VAT number now?"
	for _, marks := range []string{"", "sections:\n  how-do-i-add-my-vat-number: {audience: agents}\n"} {
		v, err := policy.Parse(path, []byte(head+"\nowner: plausible-docs\n"+marks+body))
		require.NoError(t, err)
		var ev []policy.Evidence
		for _, c := range v.Chunks {
			ev = append(ev, policy.Evidence{ChunkID: c.ID, DocID: v.DocID, Version: v.Version, Title: v.Title, Source: v.Source,
				Area: v.Area, Text: c.Text, Score: 0.5, Fixed: c.Fixed, Audience: c.Audience})
		}
		d := extractive(t, llmtest.CustomerRequest("VAT number", question, llmtest.ProEU, ev))
		var cited []string
		for _, c := range d.Claims {
			cited = append(cited, c.ChunkIDs...)
		}
		if marks == "" {
			assert.Contains(t, cited, vat, "unmarked, the section answers the question: %s", d.Reply)
			continue
		}
		assert.NotContains(t, cited, vat, "marked for agents, it is never quoted: %s", d.Reply)
		assert.NotContains(t, d.Reply, "Add address & VAT Number")
	}
}

// A procedure is quoted to its fifth step, and the reply is cut into paragraphs where the
// section's own lines end and where another section starts, so no paragraph outgrows the
// rubric's max_paragraph_sentences (5) however many sentences are quoted.
func TestExtractiveQuotesFiveSentencesInShortParagraphs(t *testing.T) {
	t.Parallel()
	ev := []policy.Evidence{
		{ChunkID: "export@1#csv", DocID: "export", Version: 1, Title: "Export your stats", Score: 0.7,
			Text: "Export to CSV\nOpen the site settings of the site whose stats you want to export.\n" +
				"In the Imports and Exports section, find the Export Data panel.\n" +
				"Click the Export to CSV button to queue the export of your stats.\n" +
				"We email you a download link when the export of your stats is ready.\n" +
				"You have 24 hours to download the export of your stats from that link."},
		{ChunkID: "retention@1#locked", DocID: "retention", Version: 1, Title: "Locked dashboards", Score: 0.6,
			Text: "Locked sites\nYou can export the stats of a locked site from its site settings at any time."},
	}
	d := extractive(t, llmtest.CustomerRequest("Export",
		"How do I export the stats of my locked site to CSV, and how long can I download the export?", llmtest.ProEU, ev))
	require.False(t, d.Abstain, d.Reply)
	assert.Contains(t, d.Reply, "24 hours to download")
	assert.Contains(t, d.Reply, "Open the site settings")
	assert.Contains(t, d.Reply, "Click the Export to CSV button", "the fifth sentence quoted: a step of the procedure")
	body := strings.TrimSuffix(strings.TrimPrefix(d.Reply, "Hi,\n\n"), "\n\nIf anything is unclear, just reply to this email.")
	paragraphs := strings.Split(body, "\n\n")
	assert.Greater(t, len(paragraphs), 1, d.Reply)
	for _, p := range paragraphs {
		assert.LessOrEqual(t, len(text.Split(p)), 3, "paragraph %q of %q", p, d.Reply)
	}
}

// A FAQ section answers many questions, each under a title of its own, and the answer to
// the one asked often repeats none of its words ("No, …"). The title's words count for the
// lines under it, so that answer is quoted ahead of sentences of other questions that share
// more words of the customer's.
func TestExtractiveQuotesTheAnswerUnderTheAskedTitle(t *testing.T) {
	t.Parallel()
	titles := []string{"Are there any charges for paused projects?", "How are projects charged?"}
	ev := policy.Evidence{ChunkID: "help/billing-faq@1#pricing", Title: "Billing FAQ", Subheadings: titles,
		Text: "Pricing\n" + titles[1] + "\n" +
			"Each active project is charged by the hour. Projects on the Micro size are charged $10 a month. " +
			"Projects on larger sizes are charged more. A project restored from a backup is charged from the restore. " +
			"Projects in a paid organization are charged on the organization's invoice. " +
			"Deleting a project stops its charges at once. Charges for projects appear on the usage page. " +
			"Projects transferred to another organization are charged there.\n" +
			titles[0] + "\nNo, nothing is billed while it stays that way."}
	body := "If I pause a project, do you still charge us for it?"
	d := extractive(t, llmtest.CustomerRequest(ev.Title, body, llmtest.ProEU, llmtest.Retrieved(body, []policy.Evidence{ev})))
	replyHolds(t, d, []string{"nothing is billed while it stays that way"}, nil)
}
