package inbox

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/supportdraft/supportdraft/text"
)

// Classifier is the local, deterministic triage: weighted English and German cue words
// per bucket, the subject counting double. It needs no network and answers in
// microseconds, so it runs as a local activity.
type Classifier struct{}

// Remote is false: the classifier runs in process.
func (Classifier) Remote() bool { return false }

// cue is a word or phrase that points at a bucket. A cue matches at the start of a word
// ("refund" matches "refunds" and "refunded"); a cue ending in a space matches whole words
// only ("bill " is not "billing"); a cue starting with '*' matches inside a word too, for
// German compounds ("*zahlung" in "Kartenzahlung"). A negative weight takes back what a
// broader cue gave ("*abrechnung" is billing in general, not the invoice "*rechnung").
type cue struct {
	text   string
	weight int
}

// bucketCues are the cue words of each billing bucket, in the order ties are broken.
var bucketCues = []struct {
	bucket string
	cues   []cue
}{
	{BucketPaymentFailed, []cue{{"payment failed", 3}, {"failed payment", 3}, {"payment didn", 3}, {"payment did not", 3}, {"payment was declined", 3},
		{"declined", 2}, {"card expired", 3}, {"expired card", 3}, {"update my card", 2}, {"update our card", 2}, {"update the card", 2}, {"new card", 2},
		{"payment method", 2}, {"couldn t charge", 3}, {"could not charge", 3}, {"unable to charge", 3}, {"charge failed", 3}, {"past due", 2}, {"overdue", 2},
		{"unpaid", 2}, {"dunning", 3}, {"suspended", 1}, {"insufficient funds", 3}, {"bounced", 1}, {"retry the payment", 3}, {"did the payment", 3}, {"go through", 2}, {"sepa", 1},
		{"*zahlung fehlgeschlagen", 3}, {"fehlgeschlagen", 2}, {"abgelehnt", 2}, {"*abbuchung", 2}, {"lastschrift", 2}, {"kreditkarte", 1},
		{"zahlungsmethode", 2}, {"zahlungsart", 2}, {"karte ist abgelaufen", 3}, {"gesperrt", 1}, {"mahnung", 2}, {"zahlungserinnerung", 2}}},
	{BucketRefunds, []cue{{"refund", 3}, {"money back", 3}, {"reimburs", 3}, {"charged twice", 3}, {"double charged", 3}, {"charged us twice", 3},
		{"double charge", 3}, {"duplicate charge", 3}, {"charged by mistake", 2}, {"charge back", 2}, {"chargeback", 2}, {"reverse the charge", 2},
		{"want it back", 3}, {"money", 1}, {"service credit", 3}, {"*erstatt", 3}, {"geld zurück", 3}, {"doppelt abgebucht", 3}, {"zweimal abgebucht", 3}, {"*gutschrift", 1}, {"credit back", 2}}},
	{BucketCancellation, []cue{{"cancel", 3}, {"terminate", 2}, {"termination", 2}, {"close our account", 2}, {"close my account", 2},
		{"stop the subscription", 3}, {"end our subscription", 3}, {"end my subscription", 3}, {"not renew", 2}, {"don t renew", 2}, {"do not renew", 2},
		{"auto renew", 3}, {"automatic renewal", 3}, {"turn off auto", 3}, {"turn off renewal", 3}, {"stop renewal", 3}, {"won t be renewing", 3}, {"not be renewing", 3},
		{"*kündig", 3}, {"kuendig", 3}, {"stornier", 3}, {"abo beenden", 3}, {"vertrag beenden", 3}, {"verlängerung", 1}}},
	{BucketPlanChange, []cue{{"upgrade", 3}, {"downgrade", 3}, {"switch to", 2}, {"switch from", 2}, {"switch plan", 3}, {"change plan", 3}, {"change our plan", 3},
		{"change my plan", 3}, {"move to", 1}, {"move from", 2}, {"annual billing", 2}, {"monthly billing", 2}, {"yearly billing", 2}, {"annual plan", 1},
		{"add seats", 3}, {"more seats", 3}, {"remove seats", 3}, {"fewer seats", 3}, {"seat", 1}, {"licenses", 1}, {"more users", 2}, {"pause", 2},
		{"*tarifwechsel", 3}, {"tarif wechseln", 3}, {"*wechsel", 2}, {"*umstell", 2}, {"*tarif", 1}, {"hochstufen", 3}, {"herabstufen", 3}, {"jährliche abrechnung", 2},
		{"jahresabo", 2}, {"*lizenzen", 1}, {"*plätze", 1}, {"pausieren", 2}}},
	{BucketInvoiceTax, []cue{{"invoice", 3}, {"receipt", 3}, {"vat", 3}, {"tax", 2}, {"billing address", 2}, {"po number", 3}, {"purchase order", 3},
		{"statement", 1}, {"billing history", 2}, {"charged for", 2}, {"overage", 2}, {"line item", 2}, {"proforma", 3}, {"pro forma", 3},
		{"*rechnung", 3}, {"*abrechnung", -3}, {"bill ", 2}, {"bills ", 2}, {"charges", 1}, {"umsatzsteuer", 3}, {"ust", 2}, {"mwst", 3}, {"steuer", 2}, {"quittung", 3}, {"beleg", 2}, {"rechnungsadresse", 3},
		{"bestellnummer", 2}, {"reverse charge", 2}}},
	{BucketPricingDiscounts, []cue{{"price", 3}, {"pricing", 3}, {"cost", 2}, {"how much", 3}, {"discount", 3}, {"coupon", 3}, {"promo", 3},
		{"nonprofit", 3}, {"non profit", 3}, {"charity", 2}, {"education", 1}, {"student", 1}, {"school", 1}, {"quote", 1}, {"cheaper", 2}, {"expensive", 2},
		{"add on", 2}, {"addon", 2}, {"storage pack", 2}, {"renewal", 1}, {"budget", 1}, {"vendors", 1},
		{"*preis", 3}, {"kosten", 2}, {"kostet", 3}, {"rabatt", 3}, {"gutschein", 3}, {"angebot", 2}, {"gemeinnützig", 3}, {"bildung", 1}, {"schule", 1}}},
	{BucketAccountData, []cue{{"delete", 2}, {"deletion", 3}, {"gdpr", 3}, {"personal data", 3}, {"our data", 2}, {"my data", 2}, {"data export", 3},
		{"export all", 3}, {"export our", 3}, {"export my", 3}, {"export", 1}, {"exportieren", 2}, {"subprocessor", 3}, {"sub processor", 3}, {"privacy", 1}, {"compliance", 1}, {"retention", 3}, {"keep our", 1}, {"dpa", 3}, {"data processing", 3}, {"account owner", 3}, {"transfer ownership", 3},
		{"ownership", 2}, {"billing contact", 2}, {"change the email", 2}, {"email address on the account", 3}, {"backups once", 1},
		{"dsgvo", 3}, {"löschen", 2}, {"löschung", 3}, {"*daten", 2}, {"auftragsverarbeitung", 3}, {"kontoinhaber", 3}, {"aufbewahr", 3}}},
}

// offTopicCues mark product, login and technical questions: not billing.
var offTopicCues = []cue{{"password", 2}, {"log in", 2}, {"login", 2}, {"2fa", 3}, {"two factor", 3}, {"sso", 2}, {"bug", 2}, {"error", 1}, {"crash", 2},
	{"slow", 2}, {"restore", 2}, {"sync", 2}, {"api", 2}, {"integration", 2}, {"feature", 2}, {"not working", 2}, {"doesn t work", 2}, {"outage", 2},
	{"endpoint", 2}, {"rate limit", 2}, {"webhook", 2}, {"http", 1}, {"upload", 2}, {"dark mode", 2},
	{"passwort", 2}, {"anmelden", 2}, {"fehler", 1}, {"funktioniert nicht", 2}, {"langsam", 2}, {"wiederherstell", 2}}

// Triage scores the message against every bucket. A thank-you or FYI that asks nothing
// needs no response; a message with no billing cue that asks something is not_billing.
func (Classifier) Triage(_ context.Context, m *Message) (*Triage, error) {
	subject, body := normalise(stripQuoted(m.Subject)), normalise(stripQuoted(m.Body))
	if ack, why := acknowledgement(m.Body, body); ack {
		return &Triage{NeedsResponse: false, Reason: why}, nil
	}
	best, bestScore, bestCue := "", 0, ""
	for _, b := range bucketCues {
		score, first := 0, ""
		for _, c := range b.cues {
			n := 2*count(subject, c) + count(body, c)
			if n > 0 && first == "" && c.weight > 0 {
				first = strings.TrimPrefix(c.text, "*")
			}
			score += n * c.weight
		}
		if score > bestScore {
			best, bestScore, bestCue = b.bucket, score, first
		}
	}
	off := 0
	for _, c := range offTopicCues {
		off += (2*count(subject, c) + count(body, c)) * c.weight
	}
	if best == "" || off > 2*bestScore {
		return &Triage{NeedsResponse: true, Bucket: BucketNotBilling, Reason: "no billing topic in subject or body"}, nil
	}
	return &Triage{NeedsResponse: true, Bucket: best, Reason: fmt.Sprintf("billing cue %q (score %d)", bestCue, bestScore)}, nil
}

// count is how often a cue occurs in normalised text (" word word ").
func count(text string, c cue) int {
	if strings.HasPrefix(c.text, "*") {
		return strings.Count(text, c.text[1:])
	}
	return strings.Count(text, " "+c.text)
}

// normalise lower-cases text's normalised form (text.Normalize: disguises removed) and
// turns every run of non-letters, non-digits into one space, with a space at each end,
// so cues match at word starts.
func normalise(s string) string {
	var b strings.Builder
	b.WriteByte(' ')
	space := true
	for _, r := range strings.ToLower(text.Normalize(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// stripQuoted drops quoted lines ("> …") and everything after a reply or forward header,
// keeping only what the sender wrote now. A forward with no text of its own keeps all.
func stripQuoted(s string) string {
	var kept []string
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, ">") {
			continue
		}
		if quoteHeader(t) && len(strings.TrimSpace(strings.Join(kept, " "))) > 0 {
			break
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

func quoteHeader(line string) bool {
	l := strings.ToLower(line)
	return (strings.HasPrefix(l, "on ") && strings.HasSuffix(l, "wrote:")) ||
		(strings.HasPrefix(l, "am ") && strings.HasSuffix(l, "schrieb:")) ||
		strings.HasPrefix(l, "-----original message") || strings.HasPrefix(l, "-----ursprüngliche nachricht")
}

var (
	// ackCues are thanks and confirmations in English and German.
	ackCues = []string{" thanks", " thank you", " thx", " cheers", " much appreciated", " appreciate it", " got it", " all good", " all sorted",
		" sorted now", " that fixed", " that worked", " works now", " working now", " resolved", " perfect", " great stuff", " received it",
		" danke", " vielen dank", " besten dank", " herzlichen dank", " hat geklappt", " hat funktioniert", " funktioniert wieder", " erledigt",
		" passt", " perfekt", " alles klar", " super "}
	// fyiCues say no answer is expected.
	fyiCues = []string{" fyi", " for your information", " for your records", " no action needed", " no need to reply", " no reply needed",
		" nur zur info", " zur info", " zur kenntnis", " kein handlungsbedarf", " keine antwort nötig"}
	// askCues mean the sender still wants something, whatever thanks surround it.
	askCues = []string{" please", " pls", " could you", " can you", " would you", " can we", " could we", " i need", " we need", " i want",
		" we want", " i would like", " we would like", " i d like", " we d like", " let me know", " still", " but ", " however", " not yet",
		" haven t", " hasn t", " didn t", " doesn t", " isn t", " wasn t", " how ", " when ", " why ", " where ", " which ",
		" bitte", " können sie", " könnten sie", " können wir", " ich möchte", " wir möchten", " ich brauche", " wir brauchen", " aber ",
		" noch nicht", " immer noch", " trotzdem", " leider", " wie ", " wann ", " warum ", " wo "}
)

// acknowledgement reports a short thank-you, confirmation or FYI that asks nothing: it
// needs no response. raw is the body as written (for question marks), norm normalised.
func acknowledgement(raw, norm string) (bool, string) {
	own := stripQuoted(raw)
	if strings.Contains(own, "?") || len(strings.Fields(norm)) > 60 {
		return false, ""
	}
	for _, c := range askCues {
		if strings.Contains(norm, c) {
			return false, ""
		}
	}
	for _, c := range ackCues {
		if strings.Contains(norm, c) {
			return true, fmt.Sprintf("a thank-you or confirmation (%q) that asks nothing", strings.TrimSpace(c))
		}
	}
	for _, c := range fyiCues {
		if strings.Contains(norm, c) {
			return true, fmt.Sprintf("for information only (%q), asks nothing", strings.TrimSpace(c))
		}
	}
	return false, ""
}
