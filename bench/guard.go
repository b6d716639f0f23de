package bench

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
)

// GuardOptions sets how many drafts `bench guard` checks and how long each is.
type GuardOptions struct {
	Drafts int    // timed drafts (default 2000)
	Chars  int    // target length of each draft in characters (default 2000)
	Seed   uint64 // the generator's seed; the same seed gives the same drafts
}

// GuardResult is what `supportdraft bench guard` prints. The guard runs inside every draft
// and at every send-check, so its p99 on a realistic draft is what an agent waits for.
type GuardResult struct {
	Drafts        int     `json:"drafts"`
	Sentences     int     `json:"sentences"`
	CharsPerDraft int     `json:"chars_per_draft"` // mean
	Sources       int     `json:"sources_per_draft"`
	SentencesPerS float64 `json:"sentences_per_s"`
	P50Ms         float64 `json:"p50_ms_per_draft"`
	P99Ms         float64 `json:"p99_ms_per_draft"`
	MaxMs         float64 `json:"max_ms_per_draft"`
	StruckShare   float64 `json:"struck_share"` // struck sentences / all sentences: a sanity check on the drafts
}

// Guard checks generated drafts against a fixed set of sources, one draft at a time as the
// workflow does, and measures each check: sentence splitting, flagging, the analysis of
// every source and the support rule. It needs no database. The drafts mix sentences the
// sources back, invented numbers, commercial verbs without a source, eligibility and
// future promises, small talk, list items and placeholders, so every path of the guard
// runs; a few warm-up drafts run first and are not timed.
func Guard(vocab *guard.Vocabulary, opts GuardOptions) GuardResult {
	if opts.Drafts <= 0 {
		opts.Drafts = 2000
	}
	if opts.Chars <= 0 {
		opts.Chars = 2000
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 2))
	drafts := make([]string, opts.Drafts)
	chars := 0
	for i := range drafts {
		drafts[i] = generateDraft(rng, opts.Chars)
		chars += len(drafts[i])
	}
	for i := range min(50, len(drafts)) {
		vocab.Check(guard.Input{Reply: drafts[i], Sources: guardSources, Mode: guard.ModeAnySource})
	}

	runtime.GC() // start the timed loop with a clean heap, not with the generator's garbage

	res := GuardResult{Drafts: opts.Drafts, CharsPerDraft: chars / opts.Drafts, Sources: len(guardSources)}
	ms := make([]float64, len(drafts))
	var total time.Duration
	struck := 0
	for i, d := range drafts {
		start := time.Now()
		r := vocab.Check(guard.Input{Reply: d, Sources: guardSources, Mode: guard.ModeAnySource})
		elapsed := time.Since(start)
		total += elapsed
		ms[i] = float64(elapsed) / float64(time.Millisecond)
		res.Sentences += len(r.Sentences)
		struck += r.Struck
	}
	res.SentencesPerS = float64(res.Sentences) / total.Seconds()
	res.P50Ms, res.P99Ms, res.MaxMs = percentile(ms, 50), percentile(ms, 99), percentile(ms, 100)
	res.StruckShare = ratio(struck, res.Sentences)
	return res
}

// generateDraft writes a support reply of about chars characters: a greeting, paragraphs
// of three or four sentences, now and then a bulleted list, and a sign-off.
func generateDraft(rng *rand.Rand, chars int) string {
	var b strings.Builder
	b.WriteString(pick(rng, greetings))
	b.WriteString("\n\n")
	for b.Len() < chars-60 {
		if rng.IntN(5) == 0 {
			b.WriteString("A few things that may help:\n")
			for range 2 + rng.IntN(3) {
				b.WriteString("- " + fill(rng, pick(rng, sentences)) + "\n")
			}
			b.WriteString("\n")
			continue
		}
		for j := range 3 + rng.IntN(2) {
			if j > 0 {
				b.WriteString(" ")
			}
			b.WriteString(fill(rng, pick(rng, sentences)))
		}
		b.WriteString("\n\n")
	}
	b.WriteString(pick(rng, signoffs))
	return b.String()
}

// fill replaces the slots of a sentence template: #N# with a number and #M# with an amount
// of money the sources may or may not state, #VERB# with a commercial verb.
func fill(rng *rand.Rand, template string) string {
	return strings.NewReplacer("#N#", pick(rng, slotNumbers), "#M#", pick(rng, slotMoney),
		"#VERB#", pick(rng, slotVerbs)).Replace(template)
}

var (
	slotNumbers = []string{"14", "5", "30", "19", "fourteen", "two", "48", "24"}
	slotMoney   = []string{"12.50", "1,299.00", "20", "99"}
	slotVerbs   = []string{"refund", "credit", "waive", "extend", "cancel", "downgrade", "upgrade"}
)

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

var greetings = []string{"Hi Anna,", "Hello Mr. Müller,", "Dear {{first_name}},", "Hi there,"}

var signoffs = []string{"Best regards,\nSam from Billing", "Kind regards,\nThe billing team", "Thanks,\n[AGENT_NAME]"}

// sentences are the templates drafts are made of; #N#, #M# and #VERB# are slots (see fill).
var sentences = []string{
	"Thanks for reaching out about your annual subscription, and sorry for the trouble with the invoice.",
	"I have looked at your account and the billing history for the last few months.",
	"Annual plans can be refunded within #N# days of purchase.",
	"Refunds are paid to the original payment method within #N# business days.",
	"We can #VERB# the full amount of $#M# to the card you paid with.",
	"Your plan includes priority support, so replies come within #N# hours.",
	"If you would rather keep the plan, you can downgrade to the monthly Starter plan instead.",
	"The change takes effect at the end of the current billing period, and the remaining balance is prorated.",
	"We can also waive the late fee of €#M# as a one-time courtesy.",
	"You can download every invoice from Settings, e.g. to forward them to your finance team.",
	"Seats can be removed at any time; the next invoice reflects the change.",
	"VAT is charged at #N#% for customers in Germany.",
	"This will be fixed in the next release, which should be out by next week.",
	"Under EU law you also have a statutory right of withdrawal for #N# days.",
	"If you decide to cancel, please give us one month of notice.",
	"You qualify for a loyalty credit of #N# percent if you stay another year.",
	"Let me know if anything is unclear, I am happy to help.",
	"I have attached the corrected invoice (No. 2026-0412) to this email.",
	"We will #VERB# your account by {{amount}} once the payment clears.",
	"The invoice total was €#M#, including VAT at the German rate.",
	"Annual plans can be cancelled with one month of notice.",
	"Our team reviewed the charge on 2 March and found it correct.",
}

// guardSources are the eligible chunks every generated draft is checked against: about as
// many as retrieval returns for one ticket.
var guardSources = []policy.Evidence{
	{ChunkID: "billing/refunds-annual@4#window", Text: "Annual plans can be refunded within 14 days of purchase. Refunds are paid to the original payment method within 5 business days. The full amount is refunded, for example $1,299.00 for an annual Pro plan."},
	{ChunkID: "billing/plan-changes@7#downgrade", Text: "Customers can downgrade at any time. A downgrade takes effect at the end of the current billing period; the remaining balance is prorated and credited to the next invoice."},
	{ChunkID: "billing/fees@2#late-fee", Text: "A late fee of €12.50 applies to invoices paid after the due date. Agents may not waive it; escalate to billing operations."},
	{ChunkID: "billing/invoices@3#download", Text: "Every invoice can be downloaded from Settings > Billing. Seats can be removed at any time and the next invoice reflects the change."},
	{ChunkID: "billing/tax@5#vat-de", Text: "Customers in Germany are charged VAT at 19%. Business customers with a valid VAT ID are invoiced under the reverse-charge procedure."},
	{ChunkID: "billing/cancellation@3#notice", Text: "Annual plans can be cancelled with one month of notice. Cancellation takes effect at the end of the notice period; no partial refunds are made for the remaining term."},
	{ChunkID: "billing/support@1#priority", Text: "Business plans include priority support: the first reply comes within 4 business hours. Pro plans are answered within 24 hours."},
	{ChunkID: "billing/refunds-monthly@1#duplicates", Text: "If the same invoice was paid twice, the second payment is refunded in full within 5 to 10 business days."},
}
