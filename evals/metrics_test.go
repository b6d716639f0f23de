package evals

import (
	"math"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/ticket"
)

func ts(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

// Chunk IDs of the hand-made corpus: annual refunds were 30 days until 2026-03-01, then
// 14 days, for pro and business in the EU; v3 (21 days) is a draft.
const (
	chunkV1   = "billing/refunds@1#window"
	chunkV2   = "billing/refunds@2#window"
	chunkV3   = "billing/refunds@3#window"
	chunkHelp = "helpcenter/refunds@1#how"
)

func testSources() *Sources {
	v := func(doc string, n int, status policy.Status, from, to *time.Time, chunks ...policy.Chunk) *policy.Version {
		return &policy.Version{DocID: doc, Version: n, Status: status, EffectiveFrom: from, EffectiveTo: to,
			Plans: []string{"pro", "business"}, Regions: []string{"eu"}, Chunks: chunks}
	}
	return NewSources([]*policy.Version{
		v("billing/refunds", 1, policy.StatusSuperseded, ts("2025-01-01T00:00:00Z"), ts("2026-03-01T00:00:00Z"),
			policy.Chunk{ID: chunkV1, Text: "Annual plans can be refunded in full within 30 days of purchase."}),
		v("billing/refunds", 2, policy.StatusApproved, ts("2026-03-01T00:00:00Z"), nil,
			policy.Chunk{ID: chunkV2, Text: "Annual plans can be refunded in full within 14 days of purchase."}),
		v("billing/refunds", 3, policy.StatusDraft, nil, nil,
			policy.Chunk{ID: chunkV3, Text: "Annual plans can be refunded in full within 21 days of purchase."}),
		v("helpcenter/refunds", 1, policy.StatusApproved, ts("2025-01-01T00:00:00Z"), nil,
			policy.Chunk{ID: chunkHelp, Text: "Ask for a refund from the Billing page; it is confirmed by email."}),
	}, nil)
}

// tk is a ticket at 2026-04-01 (v2 current) from a pro EU account, asking about refunds.
func tk(id string, expect *dataset.Expect) *dataset.Labelled {
	return &dataset.Labelled{Ticket: ticket.Ticket{TicketID: id, Revision: 1, UpdatedAt: *ts("2026-04-01T10:00:00Z"),
		Account: ticket.Account{Plan: "pro", Region: "eu"}}, Expect: expect}
}

func refundsExpect() *dataset.Expect {
	return &dataset.Expect{Answerable: true, Area: "refunds", Cite: []string{"billing/refunds@2"},
		MustInclude: []string{"14 days"}, MustNotInclude: []string{"30 days"}}
}

// answer builds the record of a one-sentence answer citing chunk, as the workflow saves it.
func answer(sentence, chunk string, version int, confidence float64) *drafts.Saved {
	return &drafts.Saved{
		Reply:      "Hi, " + sentence,
		Claims:     []drafts.ClaimCheck{{Sentence: sentence, ChunkIDs: []string{chunk}, SpanOK: true, Verdict: llm.VerdictSupports}},
		Sentences:  []guard.SentenceResult{{Text: "Hi,", Kept: true}, {Text: sentence, Flagged: true, Kept: true, SourceID: chunk}},
		Bound:      []drafts.BoundVersion{{DocID: "billing/refunds", Version: version}},
		Confidence: confidence,
	}
}

func abstention(confidence float64) *drafts.Saved {
	return &drafts.Saved{Abstained: true, Reply: "A member of the billing team will reply.", Confidence: confidence,
		Sentences: []guard.SentenceResult{{Text: "A member of the billing team will reply.", Kept: true}},
		Bound:     []drafts.BoundVersion{{DocID: "billing/refunds", Version: 1}}}
}

func TestAssess(t *testing.T) {
	t.Parallel()
	src := testSources()
	current := "Annual plans can be refunded in full within 14 days of purchase."
	stale := "Annual plans can be refunded in full within 30 days of purchase."
	tests := []struct {
		name        string
		out         Outcome
		label       string
		useful      *bool
		unsupported int
		staleCited  []string
		missing     int
		violations  int
	}{
		{name: "current version, right fact: grounded",
			out: Outcome{Ticket: tk("T-1", refundsExpect()), Iteration: answer(current, chunkV2, 2, 0.9)}, label: LabelGrounded},
		{name: "superseded version: stale, unsupported, forbidden fact",
			out:   Outcome{Ticket: tk("T-2", refundsExpect()), Iteration: answer(stale, chunkV1, 1, 0.9)},
			label: LabelUnsupported, unsupported: 1, staleCited: []string{"billing/refunds@1"}, missing: 1, violations: 1},
		{name: "draft version is never eligible",
			out:   Outcome{Ticket: tk("T-3", refundsExpect()), Iteration: answer("Refunds within 21 days.", chunkV3, 3, 0.9)},
			label: LabelUnsupported, unsupported: 1, staleCited: []string{"billing/refunds@3"}, missing: 1},
		{name: "eligible chunk that does not carry the sentence's number",
			out:   Outcome{Ticket: tk("T-4", refundsExpect()), Iteration: answer("Refunds within 28 days.", chunkV2, 2, 0.9)},
			label: LabelUnsupported, unsupported: 1, missing: 1},
		{name: "same number in other words is carried",
			out:   Outcome{Ticket: tk("T-5", refundsExpect()), Iteration: answer("You have two weeks to ask for a refund.", chunkV2, 2, 0.9)},
			label: LabelGrounded},
		{name: "wrong plan: the current version is not eligible for enterprise",
			out: func() Outcome {
				tt := tk("T-6", refundsExpect())
				tt.Account.Plan = "enterprise"
				return Outcome{Ticket: tt, Iteration: answer(current, chunkV2, 2, 0.9)}
			}(),
			label: LabelUnsupported, unsupported: 1, staleCited: []string{"billing/refunds@2"}},
		{name: "before the change, v1 is the current one",
			out: func() Outcome {
				tt := tk("T-7", &dataset.Expect{Answerable: true, Area: "refunds", Cite: []string{"billing/refunds@1"}, MustInclude: []string{"30 days"}})
				tt.UpdatedAt = *ts("2026-02-28T23:59:00Z")
				return Outcome{Ticket: tt, Iteration: answer(stale, chunkV1, 1, 0.9)}
			}(),
			label: LabelGrounded},
		{name: "right but misses a fact: incomplete",
			out: Outcome{Ticket: tk("T-8", &dataset.Expect{Answerable: true, Area: "refunds", Cite: []string{"billing/refunds@2"},
				MustInclude: []string{"14 days", "Billing page"}}), Iteration: answer(current, chunkV2, 2, 0.9)},
			label: LabelIncomplete, missing: 1},
		{name: "right version but not an expected one: incomplete",
			out: Outcome{Ticket: tk("T-9", &dataset.Expect{Answerable: true, Area: "refunds", Cite: []string{"helpcenter/refunds@1"},
				MustInclude: []string{"14 days"}}), Iteration: answer(current, chunkV2, 2, 0.9)},
			label: LabelIncomplete},
		{name: "answer to an unanswerable ticket: incomplete",
			out:   Outcome{Ticket: tk("T-10", &dataset.Expect{Area: "hardware"}), Iteration: answer(current, chunkV2, 2, 0.9)},
			label: LabelIncomplete},
		{name: "abstention on an unanswerable ticket is useful",
			out:   Outcome{Ticket: tk("T-11", &dataset.Expect{Area: "hardware"}), Iteration: abstention(0.1)},
			label: LabelAbstained, useful: ptr(true)},
		{name: "abstention on an answerable ticket is not useful",
			out:   Outcome{Ticket: tk("T-12", refundsExpect()), Iteration: abstention(0.1)},
			label: LabelAbstained, useful: ptr(false), missing: 1},
		{name: "failed draft has no label",
			out:   Outcome{Ticket: tk("T-13", refundsExpect()), Err: "boom"},
			label: "", missing: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := Assess(tc.out, src)
			if c.Label != tc.label {
				t.Errorf("label = %q, want %q (case %+v)", c.Label, tc.label, c)
			}
			if (c.Useful == nil) != (tc.useful == nil) || (c.Useful != nil && *c.Useful != *tc.useful) {
				t.Errorf("useful = %v, want %v", deref(c.Useful), deref(tc.useful))
			}
			if len(c.UnsupportedSentences) != tc.unsupported {
				t.Errorf("unsupported sentences = %q, want %d", c.UnsupportedSentences, tc.unsupported)
			}
			if !equal(c.StaleCited, tc.staleCited) {
				t.Errorf("stale cited = %q, want %q", c.StaleCited, tc.staleCited)
			}
			if len(c.MissingFacts) != tc.missing {
				t.Errorf("missing facts = %q, want %d", c.MissingFacts, tc.missing)
			}
			if len(c.Violations) != tc.violations {
				t.Errorf("violations = %q, want %d", c.Violations, tc.violations)
			}
		})
	}
}

// TestAssessIgnoresTheDraftsOwnVerdicts: a sentence the guard kept, backed by a chunk the
// draft's checker accepted, is still unsupported when that chunk was not eligible then.
func TestAssessIgnoresTheDraftsOwnVerdicts(t *testing.T) {
	t.Parallel()
	r := answer("Annual plans can be refunded in full within 30 days of purchase.", chunkV1, 1, 0.95)
	r.Bound = nil // even a draft that forgot to bind its version is judged by what it cites
	c := Assess(Outcome{Ticket: tk("T-1", nil), Iteration: r}, testSources())
	if c.Label != LabelUnsupported || len(c.StaleCited) != 1 || len(c.UnsupportedSentences) != 1 {
		t.Fatalf("got %+v, want unsupported with one stale version and one unsupported sentence", c)
	}
}

// TestAssessCountsOnlyKeptFlaggedSentences: struck sentences are not in the reply, and
// unflagged ones state nothing that binds the company.
func TestAssessCountsOnlyKeptFlaggedSentences(t *testing.T) {
	t.Parallel()
	r := answer("Annual plans can be refunded in full within 14 days of purchase.", chunkV2, 2, 0.9)
	r.Sentences = append(r.Sentences,
		guard.SentenceResult{Text: "We refund 90 days.", Flagged: true, Kept: false, Reason: "struck"},
		guard.SentenceResult{Text: "Thanks for your patience.", Kept: true})
	c := Assess(Outcome{Ticket: tk("T-1", refundsExpect()), Iteration: r}, testSources())
	if c.MaterialSentences != 1 || len(c.UnsupportedSentences) != 0 {
		t.Fatalf("material = %d, unsupported = %q; want 1 and none", c.MaterialSentences, c.UnsupportedSentences)
	}
}

func TestSummarise(t *testing.T) {
	t.Parallel()
	src := testSources()
	current := "Annual plans can be refunded in full within 14 days of purchase."
	stale := "Annual plans can be refunded in full within 30 days of purchase."
	twoFacts := &dataset.Expect{Answerable: true, Area: "refunds", Cite: []string{"billing/refunds@2", "helpcenter/refunds@1"},
		MustInclude: []string{"14 days", "Billing page"}}
	outcomes := []Outcome{
		{Ticket: tk("T-1", refundsExpect()), Iteration: answer(current, chunkV2, 2, 0.9)},                   // grounded
		{Ticket: tk("T-2", refundsExpect()), Iteration: answer(stale, chunkV1, 1, 0.7)},                     // unsupported, stale
		{Ticket: tk("T-3", twoFacts), Iteration: answer(current, chunkV2, 2, 0.8)},                          // incomplete: 1 of 2 facts
		{Ticket: tk("T-4", &dataset.Expect{Area: "hardware"}), Iteration: abstention(0.1)},                  // useful abstention
		{Ticket: tk("T-5", refundsExpect()), Iteration: abstention(0.3)},                                    // abstention, not useful
		{Ticket: tk("T-6", refundsExpect()), Err: "workflow failed"},                                        // failed
		{Ticket: tk("T-7", nil), Iteration: answer(current, chunkV2, 2, 0.6)},                               // unlabelled
		{Ticket: tk("T-8", &dataset.Expect{Area: "hardware"}), Iteration: answer(current, chunkV2, 2, 0.5)}, // answered the unanswerable
	}
	cases := make([]Case, len(outcomes))
	for i, o := range outcomes {
		cases[i] = Assess(o, src)
	}
	m := Summarise(cases)

	ints := map[string][2]int{
		"tickets":                     {m.Tickets, 8},
		"drafted":                     {m.Drafted, 5},
		"abstained":                   {m.Abstained, 2},
		"failed":                      {m.Failed, 1},
		"must_not_include_violations": {m.MustNotIncludeViolations, 1},
		"grounded":                    {m.Labels[LabelGrounded], 2}, // T-1 and the unlabelled T-7
		"incomplete":                  {m.Labels[LabelIncomplete], 2},
		"unsupported":                 {m.Labels[LabelUnsupported], 1},
		"abstained label":             {m.Labels[LabelAbstained], 2},
	}
	for name, got := range ints {
		if got[0] != got[1] {
			t.Errorf("%s = %d, want %d", name, got[0], got[1])
		}
	}
	rates := map[string][2]float64{
		// Material sentences: one per answer (5), one unsupported (T-2).
		"unsupported_claim_rate": {m.UnsupportedClaimRate, 1.0 / 5},
		// Answers: T-1, T-2, T-3, T-7, T-8; stale: T-2.
		"stale_source_rate": {m.StaleSourceRate, 1.0 / 5},
		// Labelled abstentions T-4 (useful) and T-5 (not).
		"useful_abstention_rate": {m.UsefulAbstentionRate, 1.0 / 2},
		// Answers to answerable cited tickets: T-1 (1 of 1), T-2 (0 of 1), T-3 (1 of 1).
		"citation_precision": {m.CitationPrecision, 2.0 / 3},
		// Answerable cited tickets: T-1 hit, T-2 miss, T-3 hit, T-5 miss, T-6 miss.
		"citation_recall": {m.CitationRecall, 2.0 / 5},
		// Facts: T-1 1/1, T-2 0/1, T-3 1/2, T-5 0/1, T-6 0/1.
		"must_include_rate": {m.MustIncludeRate, 2.0 / 6},
	}
	for name, got := range rates {
		if math.Abs(got[0]-got[1]) > 1e-9 {
			t.Errorf("%s = %.4f, want %.4f", name, got[0], got[1])
		}
	}
	if got := m.ConfidenceByLabel[LabelGrounded]; got.N != 2 || math.Abs(got.Mean-0.75) > 1e-9 {
		t.Errorf("grounded confidence = %+v, want n=2 mean=0.75", got)
	}
	if got := m.ConfidenceByLabel[LabelAbstained]; got.N != 2 || math.Abs(got.Mean-0.2) > 1e-9 {
		t.Errorf("abstained confidence = %+v, want n=2 mean=0.2", got)
	}
	want := []AreaStats{
		{Area: unlabelledArea, Tickets: 1},
		{Area: "hardware", Tickets: 2, Abstained: 1, AbstentionRate: 0.5, UsefulAbstentions: 1},
		{Area: "refunds", Tickets: 5, Answerable: 5, Abstained: 1, AbstentionRate: 0.2},
	}
	if len(m.PerArea) != len(want) {
		t.Fatalf("per area = %+v, want %+v", m.PerArea, want)
	}
	for i := range want {
		if m.PerArea[i] != want[i] {
			t.Errorf("per area[%d] = %+v, want %+v", i, m.PerArea[i], want[i])
		}
	}
}

func TestSummariseEmptyDenominatorsAreZero(t *testing.T) {
	t.Parallel()
	m := Summarise(nil)
	if m.UnsupportedClaimRate != 0 || m.StaleSourceRate != 0 || m.UsefulAbstentionRate != 0 || len(m.Labels) != len(Labels) {
		t.Fatalf("empty summary = %+v", m)
	}
}

func ptr[T any](v T) *T { return &v }

func deref(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
