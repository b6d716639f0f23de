package bench

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/guard"
)

func TestGenerateDraft(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		d := generateDraft(rng, 2000)
		if len(d) < 1800 || len(d) > 2600 {
			t.Errorf("draft of %d characters, want about 2000", len(d))
		}
		if strings.Contains(d, "#N#") || strings.Contains(d, "#M#") || strings.Contains(d, "#VERB#") {
			t.Fatalf("unfilled slot in %q", d)
		}
	}
}

// TestGuardBenchRunsEveryPath checks the figures are computed and that the generated
// drafts exercise both verdicts; it asserts nothing about time.
func TestGuardBenchRunsEveryPath(t *testing.T) {
	t.Parallel()
	v, err := guard.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	res := Guard(v, GuardOptions{Drafts: 100, Seed: 7})
	if res.Drafts != 100 || res.Sentences < 100*15 || res.SentencesPerS <= 0 || res.P99Ms <= 0 || res.P99Ms < res.P50Ms {
		t.Fatalf("implausible result %+v", res)
	}
	if res.StruckShare <= 0.05 || res.StruckShare >= 0.8 {
		t.Errorf("struck share %.2f: the drafts should mix backed and unbacked sentences", res.StruckShare)
	}
}

func BenchmarkGuardDraft(b *testing.B) {
	v, err := guard.DefaultVocabulary()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	drafts := make([]string, 64)
	for i := range drafts {
		drafts[i] = generateDraft(rng, 2000)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		v.Check(guard.Input{Reply: drafts[i%len(drafts)], Sources: guardSources, Mode: guard.ModeAnySource})
	}
}
