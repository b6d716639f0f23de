package guard

import (
	"os"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// helpCenterSources parses a help-center page nobody on the team wrote
// (evals/helpcenter), with marks added to its front matter, into the guard's sources.
func helpCenterSources(t *testing.T, marks string) []policy.Evidence {
	t.Helper()
	const path = "../evals/helpcenter/corpus/billing.v1.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, body, _ := strings.Cut(string(data), "\nowner: plausible-docs\n")
	v, err := policy.Parse(path, []byte(head+"\nowner: plausible-docs\n"+marks+body))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]policy.Evidence, len(v.Chunks))
	for i, c := range v.Chunks {
		out[i] = policy.Evidence{ChunkID: c.ID, DocID: v.DocID, Version: v.Version, Title: v.Title, Source: v.Source,
			Area: v.Area, Text: c.Text, Fixed: c.Fixed, Audience: c.Audience}
	}
	return out
}

// Front-matter marks on text written elsewhere: a section marked audience: agents is never
// quoted to a customer, whatever its heading says, and a section marked fixed backs only
// its own words. Without the marks the same sentences are backed.
func TestCheckFrontMatterMarks(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	marked := v.Read(helpCenterSources(t, "sections:\n  how-do-i-add-my-vat-number: {audience: agents}\n"+
		"  what-happens-if-i-exceed-my-pageview-limit: {fixed: true}\n"))
	plain := v.Read(helpCenterSources(t, ""))
	for _, tt := range []struct {
		sentence           string
		marked             string // the reason's start with the marks
		keptPlain, keptSet bool
	}{
		{"Paddle will automatically refund the VAT on your original payment and apply the correct rate to future payments.",
			"quotes guidance written for support agents in plausible/billing@1#how-do-i-add-my-vat-number", true, false},
		{"Paddle will refund the VAT on your original payment automatically.",
			"quotes guidance written for support agents", true, false},
		{"If usage exceeds your tier for two consecutive months, we'll notify you to upgrade.",
			"verbatim approved macro plausible/billing@1#what-happens-if-i-exceed-my-pageview-limit", true, true},
		{"If your usage is over your tier for two consecutive months, we will notify you to upgrade.",
			"paraphrases the fixed wording of plausible/billing@1#what-happens-if-i-exceed-my-pageview-limit", true, false},
	} {
		got := v.Check(Input{Reply: tt.sentence, Read: marked, Mode: ModeAnySource}).Sentences[0]
		if got.Kept != tt.keptSet || !strings.HasPrefix(got.Reason, tt.marked) {
			t.Errorf("marked: %q: kept=%v reason=%q, want kept=%v reason %q…", tt.sentence, got.Kept, got.Reason, tt.keptSet, tt.marked)
		}
		if got := v.Check(Input{Reply: tt.sentence, Read: plain, Mode: ModeAnySource}).Sentences[0]; got.Kept != tt.keptPlain {
			t.Errorf("unmarked: %q: kept=%v reason=%q, want kept=%v", tt.sentence, got.Kept, got.Reason, tt.keptPlain)
		}
	}
}
