package local

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// The embedded model parses, names the sets it was fitted on and weighs signals the
// drafter reads; a file that weighs a signal nobody computes is refused, as is a
// threshold that is not a probability.
func TestAnswerabilityFile(t *testing.T) {
	t.Parallel()
	m := DefaultAnswerability()
	if m.Version < 1 || len(m.FittedOn) == 0 || len(m.Weights) == 0 || m.Threshold <= 0 {
		t.Fatalf("embedded answerability model: %+v, want a fitted version with weights and a threshold", m)
	}
	if _, err := ParseAnswerability([]byte(`{"version": 1, "weights": {"vibes": 1}, "threshold": 0.5}`)); err == nil || !strings.Contains(err.Error(), "vibes") {
		t.Fatalf("weight for an unknown signal: err %v, want one naming it", err)
	}
	if _, err := ParseAnswerability([]byte(`{"version": 1, "weights": {"relevance": 1}, "threshold": 1.5}`)); err == nil {
		t.Fatal("threshold 1.5: no error")
	}
}

// The fit learns from the samples, keeps every weight to its signal's direction (a word
// the knowledge base lacks never speaks for an answer, even where the samples say so),
// reads the threshold from the answerable samples and gives the same model twice.
func TestFitAnswerabilityKeepsDirectionsAndIsDeterministic(t *testing.T) {
	t.Parallel()
	var samples []AnswerabilitySample
	for i := range 40 {
		answerable := i%4 != 0
		rel := 0.3
		if answerable {
			rel = 0.6 + float64(i%5)/10
		}
		unknown := 0.0
		if answerable && i%3 == 0 { // backstory names things no policy does: a spurious lead
			unknown = 0.5
		}
		samples = append(samples, AnswerabilitySample{Answerable: answerable,
			Signals: map[string]float64{SignalRelevance: rel, SignalUnknown: unknown}})
	}
	m, err := FitAnswerabilitySets([]AnswerabilitySet{{Samples: samples}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Weights[SignalRelevance] <= 0 || m.Weights[SignalUnknown] > 0 {
		t.Fatalf("weights %v: want relevance above 0 and unknown at or below 0", m.Weights)
	}
	held := 0
	for _, s := range samples {
		if s.Answerable && m.Probability(s.Signals) < m.Threshold {
			held++
		}
		if !s.Answerable && m.Probability(s.Signals) >= m.Threshold {
			t.Errorf("unanswerable sample %v scores %.3f, above the threshold %.3f", s.Signals, m.Probability(s.Signals), m.Threshold)
		}
	}
	if float64(held) > falseAbstention*30+1 {
		t.Errorf("%d of 30 answerable samples fall below the threshold %.3f", held, m.Threshold)
	}
	again, _ := FitAnswerabilitySets([]AnswerabilitySet{{Samples: samples}})
	if !reflect.DeepEqual(m, again) {
		t.Fatalf("two fits differ: %+v and %+v", m, again)
	}
	if _, err := FitAnswerabilitySets(nil); err == nil {
		t.Fatal("fit on no samples: no error")
	}
}

// A word of the question no chunk of the knowledge base holds counts as unknown; a word
// the retrieved sections lack but the knowledge base holds does not. Without the store's
// term statistics the evidence alone decides.
func TestUnknownReadsTheWholeKnowledgeBase(t *testing.T) {
	t.Parallel()
	asks := []string{"Can we pay the invoice through Alipay?"}
	inKB := &llm.Terms{Chunks: 200, Held: map[string]int{"invoice": 40, "alipay": 3, "pay": 90}}
	notInKB := &llm.Terms{Chunks: 200, Held: map[string]int{"invoice": 40, "alipay": 0, "pay": 90}}
	if got := readSignals(asks[0], asks, inKB, practiceSections(t), nil, nil, 0)[SignalUnknown]; got != 0 {
		t.Errorf("alipay held by 3 chunks of the knowledge base: unknown %.2f, want 0", got)
	}
	if got := readSignals(asks[0], asks, notInKB, practiceSections(t), nil, nil, 0)[SignalUnknown]; got <= 0 {
		t.Errorf("alipay held by no chunk: unknown %.2f, want above 0", got)
	}
	if got := readSignals(asks[0], asks, nil, practiceSections(t), nil, nil, 0)[SignalUnknown]; got <= 0 {
		t.Errorf("alipay in no evidence, no term statistics: unknown %.2f, want above 0", got)
	}
}

// The drafter asks the model about every question it would answer: below the model's
// threshold it abstains with a note naming the closest policy and what it lacks, and it
// reports the signals it decided on either way. The embedded model answers a question
// the practice policy states outright.
func TestAnswerabilityModelDecidesADraft(t *testing.T) {
	t.Parallel()
	req := llm.Request{Subject: "Switching discount", Evidence: practiceSections(t), Messages: []llm.Message{{Author: "customer",
		Body: "We're moving over from another backup tool. Do you have a switching discount for customers coming from a competitor?"}}}
	strict := Answerability{Version: 1, Bias: 0, Weights: map[string]float64{SignalRelevance: 1}, Threshold: 0.99}
	ans := write(t, Extractive{Answerability: &strict}, req)
	if !ans.Abstain || !strings.Contains(ans.Note, "The closest policy (Discounts)") || !strings.Contains(ans.Note, "competitor") {
		t.Fatalf("below the threshold: abstain %v, note %q; want an abstention naming Discounts and the competitor", ans.Abstain, ans.Note)
	}
	if ans.Signals[SignalRelevance] <= 0 {
		t.Fatalf("signals %v: want the relevance it decided on", ans.Signals)
	}
	lenient := Answerability{Version: 1, Weights: map[string]float64{}, Threshold: 0}
	if ans, _ := (Extractive{Answerability: &lenient}).Write(context.Background(), req); ans.Abstain {
		t.Fatalf("threshold 0: abstained with %q", ans.Note)
	}
	stated := llm.Request{Subject: "Backups after cancelling", Evidence: practiceSections(t), Messages: []llm.Message{{Author: "customer",
		Body: "How long are our backups kept after we cancel the plan?"}}}
	if ans, _ := (Extractive{}).Write(context.Background(), stated); ans.Abstain || !strings.Contains(ans.Reply, "30 days") {
		t.Fatalf("embedded model on a stated answer: abstain %v, reply %q", ans.Abstain, ans.Reply)
	}
}

// Share spreads the probabilities above the threshold over [0, 1], the scale of the
// judge's fit that the score activity caps with it: 0 at the threshold and below, rising
// with the probability.
func TestAnswerabilityShare(t *testing.T) {
	t.Parallel()
	m := Answerability{Weights: map[string]float64{SignalRelevance: 4}, Threshold: 0.8}
	low, mid, high := m.Share(map[string]float64{SignalRelevance: 0.2}), m.Share(map[string]float64{SignalRelevance: 0.5}), m.Share(map[string]float64{SignalRelevance: 1})
	if low != 0 || mid <= 0 || high <= mid || high > 1 {
		t.Fatalf("shares at relevance 0.2, 0.5, 1: %.3f, %.3f, %.3f; want 0, then rising within (0, 1]", low, mid, high)
	}
}

// Temper caps coverage at the question's share and weighs the judge's fit against how
// far the best section stands out: of two drafts the judge scored alike, the one whose
// question finds several documents about as close gets the lower fit. A writer that
// reports no standout leaves the judge's fit as it is.
func TestTemperReadsShareAndStandout(t *testing.T) {
	t.Parallel()
	m := Answerability{Weights: map[string]float64{SignalRelevance: 4}, Threshold: 0.8}
	judged := llm.Scores{Faithfulness: 1, Coverage: 1, Fit: 0.6}
	clear := m.Temper(judged, map[string]float64{SignalRelevance: 1, SignalStandout: 0.9})
	crowded := m.Temper(judged, map[string]float64{SignalRelevance: 1, SignalStandout: 0.1})
	if clear.Fit != 0.75 || crowded.Fit != 0.35 {
		t.Fatalf("fit with standout 0.9 and 0.1: %.3f, %.3f; want 0.75, 0.35", clear.Fit, crowded.Fit)
	}
	if want := m.Share(map[string]float64{SignalRelevance: 1}); clear.Coverage != want || clear.Faithfulness != 1 {
		t.Fatalf("tempered %+v: coverage want the share %.3f, faithfulness untouched", clear, want)
	}
	if none := m.Temper(judged, map[string]float64{SignalRelevance: 1}); none.Fit != judged.Fit {
		t.Fatalf("no standout reported: fit %.3f, want the judge's %.3f", none.Fit, judged.Fit)
	}
}

// writerFunc is a writer standing in for a remote model.
type writerFunc func(llm.Request) *llm.Answer

func (f writerFunc) Write(_ context.Context, req llm.Request) (*llm.Answer, error) {
	return f(req), nil
}

// A remote writer gets the same decision: below the model's threshold it is never asked,
// and above it its answer carries the signals, so the score activity reads them too.
func TestAnswerableAsksTheModelFirst(t *testing.T) {
	t.Parallel()
	req := llm.Request{Subject: "Backups after cancelling", Evidence: practiceSections(t), Messages: []llm.Message{{Author: "customer",
		Body: "How long are our backups kept after we cancel the plan?"}}}
	called := false
	remote := writerFunc(func(llm.Request) *llm.Answer {
		called = true
		return &llm.Answer{Reply: "Backups are kept for 30 days after the plan ends.",
			Claims: []llm.Claim{{Sentence: "Backups are kept for 30 days after the plan ends.", ChunkIDs: []string{"help/cancellation@1#your-backups-after-cancelling"}}}}
	})
	strict := Answerability{Weights: map[string]float64{SignalRelevance: 1}, Threshold: 0.99}
	ans, err := Answerable{Writer: remote, Answerability: &strict}.Write(context.Background(), req)
	if err != nil || !ans.Abstain || called {
		t.Fatalf("below the threshold: abstain %v, writer called %v, err %v; want an abstention without a call", ans.Abstain, called, err)
	}
	ans, err = Answerable{Writer: remote}.Write(context.Background(), req)
	if err != nil || ans.Abstain || !called || ans.Signals[SignalRelevance] <= 0 {
		t.Fatalf("embedded model: abstain %v, writer called %v, signals %v, err %v; want the writer's answer with the signals", ans.Abstain, called, ans.Signals, err)
	}
}

// evidenceShares is evidence of one chunk per document, with these lexical shares.
func evidenceShares(shares ...float64) []policy.Evidence {
	var out []policy.Evidence
	for i, v := range shares {
		doc := fmt.Sprintf("doc%02d", i)
		out = append(out, policy.Evidence{ChunkID: doc + "@1#a", DocID: doc, Title: "Refunds", Text: "Refunds are paid within 14 days.", Lexical: v})
	}
	return out
}

// SignalLexical orders two questions by how much of what each asked its best document
// holds, whatever the other documents score.
func TestLexicalSignalReadsTheBestShare(t *testing.T) {
	t.Parallel()
	asks := []string{"How long do refunds take?"}
	found := readSignals(asks[0], asks, nil, evidenceShares(0.1, 0.7, 0.2), nil, nil, 0)
	near := readSignals(asks[0], asks, nil, evidenceShares(0.3, 0.25, 0.2), nil, nil, 0)
	assert.InDelta(t, 0.7, found[SignalLexical], 1e-12)
	assert.Greater(t, found[SignalLexical], near[SignalLexical], "the question whose best document holds more of it")
	none := readSignals(asks[0], asks, nil, evidenceShares(0, 0), nil, nil, 0)
	assert.Zero(t, none[SignalLexical], "no document the lexical arm scored")
}

// SignalTitle reads whether the question is about what the best section's document is
// about: the same section text scores high under a title naming the question's subject
// and 0 under one naming another, a rare word held counts more than a common one, and the
// backstory's words count, since a short question leaves its subject there. The embedded
// model weighs it.
func TestTitleSignalReadsTheDocumentTitle(t *testing.T) {
	t.Parallel()
	section := func(title string) policy.Evidence {
		return policy.Evidence{ChunkID: "doc@1#a", DocID: "doc", Title: title,
			Text: "Revenue\nRevenue is shown in the currency you choose, such as GBP or USD."}
	}
	title := func(question string, terms *llm.Terms, ev policy.Evidence) float64 {
		asks := customerAsks([]string{question})
		return readSignals(question, asks, terms, []policy.Evidence{ev}, []rankedChunk{{ev: ev, relevance: 0.5}}, nil, 0)[SignalTitle]
	}
	billed := "Can we be billed in GBP instead of USD?"
	named, passing := title(billed, nil, section("Billing currencies: GBP and USD")), title(billed, nil, section("Ecommerce revenue tracking"))
	assert.Greater(t, named, 0.5, "a title naming the currencies asked about")
	assert.Zero(t, passing, "a title naming another subject, the text mentioning the currencies in passing")

	terms := &llm.Terms{Chunks: 200, Held: map[string]int{"billed": 120, "gbp": 2, "usd": 2}}
	assert.Greater(t, title(billed, terms, section("GBP")), title(billed, terms, section("Billing")),
		"a title holding the rare word over one holding the common one")

	backstory := "My bank took a currency conversion fee on your invoice.\nCan you refund it?"
	assert.Positive(t, title(backstory, nil, section("Currency conversion fees")), "the subject named in the backstory")

	assert.Positive(t, DefaultAnswerability().Weights[SignalTitle], "the embedded model's weight")
}
