package guard

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

const (
	refundWindow = "billing/refunds-annual@4#window"
	refundsMisc  = "billing/refunds-general@2#overview"
	cancelTerms  = "billing/cancellation@3#notice"
)

var noWaiver = policy.Evidence{ChunkID: "billing/late-fees@2#waivers", Text: "Support agents may not waive late fees. Disputes go to billing operations."}

var policySources = []policy.Evidence{
	{ChunkID: refundWindow, Text: "Annual plans can be refunded within 14 days of purchase."},
	{ChunkID: refundsMisc, Text: "Refunds are handled by the billing team and paid to the original payment method."},
	{ChunkID: cancelTerms, Text: "You can cancel with 30 days notice. The notice period is one month for monthly plans."},
}

func TestCheckSentenceRules(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	tests := []struct {
		name       string
		sentence   string
		sources    []policy.Evidence
		claims     []Claim
		mode       Mode
		wantKept   bool
		wantReason string
		wantSource string
	}{
		{
			name: "invented 30-day window against a 14-day policy", mode: ModeAnySource,
			sentence: "Annual plans have a 30-day refund window.", sources: policySources[:1],
			wantReason: "no eligible source states 30 day",
		},
		{
			name: "fourteen days backed by 14 days", mode: ModeAnySource,
			sentence: "You can get a refund within fourteen days.", sources: policySources,
			wantKept: true, wantReason: "backed by " + refundWindow, wantSource: refundWindow,
		},
		{
			name: "two weeks backed by 14 days", mode: ModeAnySource,
			sentence: "Annual plans are refundable for two weeks.", sources: policySources,
			wantKept: true, wantReason: "backed by " + refundWindow, wantSource: refundWindow,
		},
		{
			name: "a number the source states twice, bounded the sentence's way once", mode: ModeAnySource,
			sentence: "If you have more than 50 sites, split them between accounts.",
			sources:  []policy.Evidence{{ChunkID: "gsc#limit", Text: "- Google has a limit of 50 live tokens. If you have more than 50 sites, split them between accounts."}},
			wantKept: true, wantReason: "backed by gsc#limit", wantSource: "gsc#limit",
		},
		{
			name: "one month is not 30 days", mode: ModeAnySource,
			sentence: "You have one month to request it.", sources: policySources[:1],
			wantReason: "no eligible source states 1 month",
		},
		{
			name: "refunds in general do not back a 30-day window", mode: ModeAnySource,
			sentence: "Refunds are possible within 30 days.", sources: policySources[1:2],
			wantReason: "no eligible source states 30 day",
		},
		{
			name: "number and verb only in different sources", mode: ModeAnySource,
			sentence: "Refunds are possible within 30 days.", sources: policySources[1:],
			wantReason: "no single eligible source states all of 30 day, 'refund'",
		},
		{
			name: "verb not in the source", mode: ModeAnySource,
			sentence: "We can waive the fee within 14 days.", sources: policySources[:1],
			wantReason: "no eligible source backs 'waive'",
		},
		{
			name: "number and verb missing", mode: ModeAnySource,
			sentence: "We will credit you 20 EUR.", sources: policySources,
			wantReason: "no eligible source states 20 money:EUR or backs 'credit'",
		},
		{
			name: "future promise with no source at all", mode: ModeAnySource,
			sentence:   "This will be fixed in the next release.",
			wantReason: "no eligible source backs it",
		},
		{
			name: "unflagged sentence kept", mode: ModeAnySource,
			sentence: "Thanks for reaching out.",
			wantKept: true, wantReason: "no commitment language",
		},
		{
			name: "placeholder struck", mode: ModeAnySource,
			sentence: "Hi {{name}}, thanks for reaching out.", sources: policySources,
			wantReason: "unresolved placeholder {{name}}",
		},
		{
			name: "draft: flagged sentence without a claim", mode: ModeDraft,
			sentence: "You can get a refund within 14 days.", sources: policySources,
			wantReason: "not backed by a claim",
		},
		{
			name: "draft: claim attached after normalisation", mode: ModeDraft,
			sentence: "You can get a refund within 14 days.", sources: policySources,
			claims:   []Claim{{Sentence: "  you can get a REFUND\nwithin 14 days ", SourceIDs: []string{refundWindow}}},
			wantKept: true, wantReason: "backed by " + refundWindow, wantSource: refundWindow,
		},
		{
			name: "draft: claim contained in the sentence", mode: ModeDraft,
			sentence: "Good news: you can get a refund within 14 days.", sources: policySources,
			claims:   []Claim{{Sentence: "You can get a refund within 14 days.", SourceIDs: []string{refundWindow}}},
			wantKept: true, wantReason: "backed by " + refundWindow, wantSource: refundWindow,
		},
		{
			name: "draft: only the cited source counts", mode: ModeDraft,
			sentence: "You can get a refund within 14 days.", sources: policySources,
			claims:     []Claim{{Sentence: "You can get a refund within 14 days.", SourceIDs: []string{refundsMisc}}},
			wantReason: "no eligible source states 14 day",
		},
		{
			name: "draft: failed claim struck with its reason", mode: ModeDraft,
			sentence: "Our team reviewed your account.", sources: policySources,
			claims:     []Claim{{Sentence: "Our team reviewed your account.", SourceIDs: []string{refundsMisc}, Failure: "judge: contradicts the cited chunk"}},
			wantReason: "judge: contradicts the cited chunk",
		},
		{
			name: "a policy that forbids does not back a promise", mode: ModeAnySource,
			sentence: "Our agents will waive the late fee for you.", sources: []policy.Evidence{noWaiver},
			wantReason: "no eligible source backs 'waive' (it says the opposite)",
		},
		{
			name: "a policy that forbids backs the refusal", mode: ModeAnySource,
			sentence: "We cannot waive the late fee.", sources: []policy.Evidence{noWaiver},
			wantKept: true, wantReason: "backed by " + noWaiver.ChunkID, wantSource: noWaiver.ChunkID,
		},
		{
			name: "a policy that allows does not back a refusal", mode: ModeAnySource,
			sentence: "Annual plans are not refunded within 14 days.", sources: policySources[:1],
			wantReason: "no eligible source backs 'not refund' (it says the opposite)",
		},
		{
			name: "German negation", mode: ModeAnySource,
			sentence: "Die Gebühr wird erstattet.", sources: []policy.Evidence{{ChunkID: "billing/gebuehren@1#x", Text: "Die Gebühr wird nicht erstattet."}},
			wantReason: "no eligible source backs 'refund' (it says the opposite)",
		},
		{
			name: "draft: unflagged sentence needs no claim", mode: ModeDraft,
			sentence: "Let me know if anything else comes up.",
			wantKept: true, wantReason: "no commitment language",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := v.Check(Input{Reply: tt.sentence, Sources: tt.sources, Claims: tt.claims, Mode: tt.mode})
			if len(res.Sentences) != 1 {
				t.Fatalf("want one sentence, got %+v", res.Sentences)
			}
			got := res.Sentences[0]
			if got.Kept != tt.wantKept || got.Reason != tt.wantReason || got.SourceID != tt.wantSource {
				t.Fatalf("got kept=%v reason=%q source=%q\nwant kept=%v reason=%q source=%q",
					got.Kept, got.Reason, got.SourceID, tt.wantKept, tt.wantReason, tt.wantSource)
			}
		})
	}
}

func TestCheckComposesKeptSentences(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	reply := "Hi Anna,\n\nThanks for reaching out. Annual plans have a 30-day refund window. " +
		"You can get a refund within fourteen days.\n\nWhat you can do:\n" +
		"1. Request it in Settings\n2. Ask us to waive the fee\n3. Reply here\n\nBest,\nSam"
	res := v.Check(Input{Reply: reply, Sources: policySources, Mode: ModeAnySource})

	note := "[Not covered by current policy: 2 sentences removed — please answer this part yourself.]"
	want := "Hi Anna,\n\nThanks for reaching out. You can get a refund within fourteen days.\n\n" +
		"What you can do:\n1. Request it in Settings\n3. Reply here\n\nBest,\nSam"
	if res.Reply != want {
		t.Fatalf("reply\n got %q\nwant %q", res.Reply, want)
	}
	if res.Struck != 2 || res.Note != note {
		t.Fatalf("struck = %d, note = %q", res.Struck, res.Note)
	}
	for _, s := range res.Sentences {
		if strings.HasPrefix(s.Text, "1.") && s.Flagged {
			t.Errorf("list marker counted as a number in %q: %v", s.Text, s.Kinds)
		}
	}
}

func TestCheckKeepsCleanDraftUntouched(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	reply := "Hi Anna,\n\nYou can get a refund within 14 days.  Just reply here.\n\nBest,\nSam"
	res := v.Check(Input{Reply: "\n" + reply + "\n", Sources: policySources, Mode: ModeAnySource})
	if res.Reply != reply || res.Struck != 0 || res.Note != "" {
		t.Fatalf("got reply %q, struck %d, note %q", res.Reply, res.Struck, res.Note)
	}
}

func TestCheckEverythingStruck(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	res := v.Check(Input{Reply: "We refund 30 days.", Mode: ModeDraft})
	want := "[Not covered by current policy: 1 sentence removed — please answer this part yourself.]"
	if res.Reply != "" || res.Note != want || res.Struck != 1 {
		t.Fatalf("got reply %q, note %q, struck %d", res.Reply, res.Note, res.Struck)
	}
	if got := Placeholders(res.Note); len(got) != 1 || got[0] != want {
		t.Fatalf("the gap note is an unresolved marker if it is ever sent: %q", got)
	}
}

func TestResultJSON(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	data, err := json.Marshal(v.Check(Input{Reply: "Thanks.", Mode: ModeAnySource}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"sentences":[{"text":"Thanks.","flagged":false,"kinds":[],"kept":true,"reason":"no commitment language","source_id":""}],"reply":"Thanks.","struck":0}`
	if string(data) != want {
		t.Fatalf("JSON\n got %s\nwant %s", data, want)
	}
}

func BenchmarkCheck(b *testing.B) {
	v := defaultVocab(b)
	reply, err := os.ReadFile("testdata/bench_draft.txt")
	if err != nil {
		b.Fatal(err)
	}
	var sources []policy.Evidence
	data, err := os.ReadFile("testdata/bench_sources.json")
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(data, &sources); err != nil {
		b.Fatalf("testdata/bench_sources.json: %v", err)
	}
	in := Input{Reply: string(reply), Sources: sources, Mode: ModeAnySource}
	b.ReportMetric(float64(len(reply)), "draft_bytes")
	b.ReportAllocs()
	for b.Loop() {
		v.Check(in)
	}
}

// A source about refunds in general backs neither an eligibility statement about the
// account nor a promise about the next release, even in the any-source mode of `check`.
func TestPhraseFlagsNeedTheSamePhraseInTheSource(t *testing.T) {
	v := defaultVocab(t)
	sources := []policy.Evidence{{ChunkID: "refunds", Text: "Annual plans can be refunded within 14 days of purchase."}}
	res := v.Check(Input{Mode: ModeAnySource, Sources: sources,
		Reply: "You qualify for a full refund. This will be fixed in the next release. Annual plans can be refunded within 14 days of purchase."})
	if len(res.Sentences) != 3 {
		t.Fatalf("sentences: %+v", res.Sentences)
	}
	for i, want := range []bool{false, false, true} {
		if res.Sentences[i].Kept != want {
			t.Errorf("sentence %q kept=%v, want %v (%s)", res.Sentences[i].Text, res.Sentences[i].Kept, want, res.Sentences[i].Reason)
		}
	}
	backed := v.Check(Input{Mode: ModeAnySource, Sources: []policy.Evidence{{ChunkID: "elig", Text: "You qualify for a full refund if you ask within 14 days."}},
		Reply: "You qualify for a full refund."})
	if !backed.Sentences[0].Kept {
		t.Errorf("a source with the same eligibility phrase should back it: %s", backed.Sentences[0].Reason)
	}
}

// Macro wording is fixed and approved: repeated word for word it is sourced, even without a
// claim; reworded, it is held to the ordinary rule.
func TestVerbatimMacroCountsAsSourced(t *testing.T) {
	v := defaultVocab(t)
	macro := policy.Evidence{ChunkID: "macros/chargeback@1#reply", Source: policy.SourceMacro,
		Text: "We have received the chargeback notice. The billing operations team answers the bank within 7 days of the notice."}
	res := v.Check(Input{Mode: ModeDraft, Sources: []policy.Evidence{macro},
		Reply: "The billing operations team answers the bank within 7 days of the notice. We answer the bank within 5 days."})
	if !res.Sentences[0].Kept || res.Sentences[0].SourceID != macro.ChunkID {
		t.Errorf("verbatim macro sentence: kept=%v %s", res.Sentences[0].Kept, res.Sentences[0].Reason)
	}
	if res.Sentences[1].Kept {
		t.Errorf("reworded macro with another number must be struck: %s", res.Sentences[1].Reason)
	}
	plain := macro
	plain.Source = policy.SourceWiki
	res = v.Check(Input{Mode: ModeDraft, Sources: []policy.Evidence{plain},
		Reply: "The billing operations team answers the bank within 7 days of the notice."})
	if res.Sentences[0].Kept {
		t.Error("without a claim, the same words from a non-macro source are not sourced in draft mode")
	}
}

// Check flags exactly the sentences with commitment language: a list item's number is not
// an amount.
func TestCheckFlagsCommitmentLanguage(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	for reply, want := range map[string]bool{
		"Hi, thanks for writing in. Have a good day!":              false,
		"Steps:\n1. Open Settings.\n2. Choose Billing.":            false, // a list item's number is not an amount
		"Thanks! We will refund the annual charge within 14 days.": true,
		"Hello. Your plan costs €29 a month.":                      true,
	} {
		flagged := false
		for _, s := range v.Check(Input{Reply: reply, Sources: policySources, Mode: ModeAnySource}).Sentences {
			flagged = flagged || s.Flagged
		}
		if flagged != want {
			t.Errorf("%q: Check flagged a sentence = %v, want %v", reply, flagged, want)
		}
	}
}

// A source is remembered per set of plan names the check's sources use: read alongside a
// source that names the Starter plan, "Starter" is a plan subject of the refund chunk;
// read alone, it is not. The remembered readings must be what a fresh vocabulary reads.
func TestRememberedSourcesKeepPlanNamesApart(t *testing.T) {
	plan := policy.Evidence{ChunkID: "plans#1", Source: "wiki", Text: "The Starter plan costs 10 EUR a month."}
	refund := policy.Evidence{ChunkID: "refunds#1", Source: "wiki", Text: "Starter customers get a refund within 14 days."}
	v := defaultVocab(t)
	for range 2 { // the second round reads from memory
		for _, sources := range [][]policy.Evidence{{plan, refund}, {refund}} {
			fresh := defaultVocab(t)
			got := v.readSources(sources)
			want := fresh.readSources(sources)
			last := len(sources) - 1
			if !reflect.DeepEqual(got.sources[last].subjects, want.sources[last].subjects) {
				t.Fatalf("with %d sources the refund chunk's subjects are %v, a fresh read gives %v", len(sources), got.sources[last].subjects, want.sources[last].subjects)
			}
		}
	}
	withPlan, alone := v.readSources([]policy.Evidence{plan, refund}), v.readSources([]policy.Evidence{refund})
	if withPlan.sources[1].subjects["starter"] != classPlanName || alone.sources[0].subjects["starter"] != "" {
		t.Fatalf("refund chunk's subjects: %v beside the plan chunk, %v alone; want starter as a plan name only beside it",
			withPlan.sources[1].subjects, alone.sources[0].subjects)
	}
}
