package text

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"plain", "Thanks for writing. We looked at it! Is that ok?", []string{"Thanks for writing.", "We looked at it!", "Is that ok?"}},
		{"empty", " \n\t ", nil},
		{"no terminator", "Best regards", []string{"Best regards"}},
		{"english abbreviations", "Pay by card, e.g. Visa. Dr. Smith vs. Mr. Jones, i.e. Acme. Done.", []string{"Pay by card, e.g. Visa.", "Dr. Smith vs. Mr. Jones, i.e. Acme.", "Done."}},
		{"etc and inc before lower case", "Cards, PayPal, etc. are fine. Acme Inc. and Foo Ltd. agree.", []string{"Cards, PayPal, etc. are fine.", "Acme Inc. and Foo Ltd. agree."}},
		{"etc before a capital ends", "Cards, PayPal, etc. We also take SEPA.", []string{"Cards, PayPal, etc.", "We also take SEPA."}},
		{"approx and No before numbers", "It takes approx. 5 days. See invoice No. 4821 for details.", []string{"It takes approx. 5 days.", "See invoice No. 4821 for details."}},
		{"short abbreviations before amounts", "A minimum of Rs. 25,000 applies. Fr. 20 in CH. We bill USD. 20% VAT is added.", []string{"A minimum of Rs. 25,000 applies.", "Fr. 20 in CH.", "We bill USD.", "20% VAT is added."}},
		{"a price opens a sentence", "Three projects on the Micro instance. $25 Pro Plan. €30 for compute.", []string{"Three projects on the Micro instance.", "$25 Pro Plan.", "€30 for compute."}},
		{"a list written inline", "We lend to the following: 1. Salaried individuals aged 21 to 60 2. Partnership Firms 3. Public Companies View more", []string{"We lend to the following:", "1. Salaried individuals aged 21 to 60", "2. Partnership Firms", "3. Public Companies View more"}},
		{"numbers that are no list", "Ends on day 1. Then day 7. After that, no. Step 2. Done.", []string{"Ends on day 1.", "Then day 7.", "After that, no.", "Step 2.", "Done."}},
		{"a sentence glued to the next", "Bring an address proof.Click here for the list. See www.Example.com or mail a@Acme.Com.", []string{"Bring an address proof.", "Click here for the list.", "See www.Example.com or mail a@Acme.Com."}},
		{"No as an answer", "Is there a fee? No. The change is free.", []string{"Is there a fee?", "No.", "The change is free."}},
		{"money and decimals", "The plan costs $1,299.00 a year. The fee is €12.50 or 1.5% of it.", []string{"The plan costs $1,299.00 a year.", "The fee is €12.50 or 1.5% of it."}},
		{"version url email", "Update to v2.4.1 first. Read https://example.com/help. Then mail billing@example.com. Thanks.", []string{"Update to v2.4.1 first.", "Read https://example.com/help.", "Then mail billing@example.com.", "Thanks."}},
		{"link target in brackets", "Use the refund form (https://example.com/refund.html) within 14 days. Then wait.", []string{"Use the refund form (https://example.com/refund.html) within 14 days.", "Then wait."}},
		{"ellipsis", "Well... we checked. Hmm… Let me see. Wait… what?", []string{"Well... we checked.", "Hmm…", "Let me see.", "Wait… what?"}},
		{"quotes and brackets after the period", `She wrote "cancel it." Then (as agreed.) we stopped. He said ‘done.’ Ok.`, []string{`She wrote "cancel it."`, "Then (as agreed.) we stopped.", "He said ‘done.’", "Ok."}},
		{"mixed terminators", "Really?! Yes.", []string{"Really?!", "Yes."}},
		{"wrapped line continues", "Hi Anna,\nthanks for your\nmessage.", []string{"Hi Anna,\nthanks for your\nmessage."}},
		{"blank line ends a sentence", "Hi Anna,\n\nThanks for your message\n  \nBest,\nSam", []string{"Hi Anna,", "Thanks for your message", "Best,\nSam"}},
		{"bullets", "Options:\n- Pause the plan\n* Switch to monthly. It is cheaper.\n• Keep it\nThat is all.", []string{"Options:", "- Pause the plan", "* Switch to monthly. It is cheaper.", "• Keep it", "That is all."}},
		{"numbered", "Steps:\n1. Open Billing\n2) Click Plan\n  10. Save\na) confirm", []string{"Steps:", "1. Open Billing", "2) Click Plan", "10. Save", "a) confirm"}},
		{"not list markers", "-5 EUR apply\n*bold* text\n1.5% fee", []string{"-5 EUR apply\n*bold* text\n1.5% fee"}},
		{"german abbreviations", "Das gilt z.B. für Jahrespläne, d.h. Pro und Business usw. Wir melden uns. Bzw. Morgen.", []string{"Das gilt z.B. für Jahrespläne, d.h. Pro und Business usw.", "Wir melden uns.", "Bzw. Morgen."}},
		{"german spaced abbreviations", "Das gilt z. B. Pro. Danach d. h. Business. Ende.", []string{"Das gilt z. B. Pro.", "Danach d. h. Business.", "Ende."}},
		{"ordinal day before a month", "Gilt ab dem 1. März 2026. Danach nicht. Ends on day 7. After that, no.", []string{"Gilt ab dem 1. März 2026.", "Danach nicht.", "Ends on day 7.", "After that, no."}},
		{"german quotes", "Er schrieb »Kündigung.« Danach nichts.", []string{"Er schrieb »Kündigung.«", "Danach nichts."}},
		{"crlf", "One.\r\n\r\nTwo.", []string{"One.", "Two."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Split(tt.text)
			var texts []string
			for _, s := range got {
				texts = append(texts, s.Text)
			}
			if !slices.Equal(texts, tt.want) {
				t.Fatalf("Split(%q)\n got %q\nwant %q", tt.text, texts, tt.want)
			}
			checkSplitInvariants(t, tt.text, got)
		})
	}
}

func TestListMarker(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want int
	}{
		{"- item", 2}, {"  * item", 4}, {"• item", len("• ")}, {"12. item", 4}, {"3)  item", 4},
		{"b) item", 3}, {"1234. item", 0}, {"-5", 0}, {"1.5%", 0}, {"Hello", 0}, {"-", 0}, {"", 0},
	}
	for _, tt := range tests {
		if got := ListMarker(tt.line); got != tt.want {
			t.Errorf("ListMarker(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

// checkSplitInvariants fails t unless sentences partition the non-space bytes of text:
// offsets in range and increasing, no sentence empty or untrimmed, Text equal to its
// span, and only white space between sentences.
func checkSplitInvariants(t *testing.T, text string, sentences []Sentence) {
	t.Helper()
	prevEnd := 0
	for i, s := range sentences {
		if s.Start < prevEnd || s.End <= s.Start || s.End > len(text) {
			t.Fatalf("sentence %d has bad offsets [%d,%d) after %d in %d bytes", i, s.Start, s.End, prevEnd, len(text))
		}
		if s.Text != text[s.Start:s.End] || s.Text != strings.TrimSpace(s.Text) || s.Text == "" {
			t.Fatalf("sentence %d text %q does not match trimmed span %q", i, s.Text, text[s.Start:s.End])
		}
		if gap := text[prevEnd:s.Start]; strings.TrimSpace(gap) != "" {
			t.Fatalf("non-space bytes %q before sentence %d belong to no sentence", gap, i)
		}
		prevEnd = s.End
	}
	if rest := text[prevEnd:]; strings.TrimSpace(rest) != "" {
		t.Fatalf("non-space bytes %q at the end belong to no sentence", rest)
	}
}

func FuzzSplit(f *testing.F) {
	for _, seed := range []string{
		"Hi Anna,\n\nThanks. We refund within 14 days (e.g. annual plans).\n- one\n2. two\n",
		"Price: $1,299.00. v2.4.1... a@b.de! «Ja.» z.B. usw. No. 5",
		"  \u00a0\u2028x.\u0085y.\r\n\r\n…",
		"\xff.\xc2 \n- \n1)\t",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkSplitInvariants(t, text, Split(text))
	})
}

func TestSplitLines(t *testing.T) {
	t.Parallel()
	text := "Refund window\nFees are 5.50 EUR, e.g. for cards. Refunds take 5 days!\n- Second item here\n1. Numbered item\nLast one"
	want := []string{"Refund window", "Fees are 5.50 EUR, e.g. for cards.", "Refunds take 5 days!", "Second item here", "Numbered item", "Last one"}
	if got := SplitLines(text); !slices.Equal(got, want) {
		t.Errorf("SplitLines = %q, want %q", got, want)
	}
}

func TestEndSentence(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Refunds take 5 days.":             "Refunds take 5 days.",
		"Is it free?":                      "Is it free?",
		"You'll have 24 hours":             "You'll have 24 hours.",
		"Here's how to do it:":             "Here's how to do it.",
		"Open Billing (top right)":         "Open Billing (top right).",
		"He said \"refunds take 5 days.\"": "He said \"refunds take 5 days.\"",
		"Starter | 10k pageviews  ":        "Starter | 10k pageviews.",
		"":                                 "",
	} {
		if got := EndSentence(in); got != want {
			t.Errorf("EndSentence(%q) = %q, want %q", in, got, want)
		}
	}
}
