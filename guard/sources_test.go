package guard

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// TestMayBackTriesEverySourceThatCanBack holds the index that picks which sources to try
// (checkContext.mayBack) to trying them all: over the faithfulness set's sentences and the
// bench draft, each against both fixture source sets, a flagged sentence is kept by the
// same source as when every source is tried in order (whole, then clause by clause). Sources are repeated with other
// IDs, so a sentence has several that back it and the first must still be the one named.
func TestMayBackTriesEverySourceThatCanBack(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	var set labelledSet
	readJSON(t, "testdata/faithfulness.json", &set)
	var bench []policy.Evidence
	readJSON(t, "testdata/bench_sources.json", &bench)
	draft, err := os.ReadFile("testdata/bench_draft.txt")
	if err != nil {
		t.Fatal(err)
	}
	sentences := []string{}
	for _, c := range set.Cases {
		sentences = append(sentences, c.Sentence)
	}
	for _, s := range text.Split(string(draft)) {
		sentences = append(sentences, s.Text)
	}
	for name, sources := range map[string][]policy.Evidence{"faithfulness": set.Sources, "bench": bench} {
		var twice []policy.Evidence
		for round := range 2 {
			for i, s := range sources {
				s.ChunkID = fmt.Sprintf("%s-%d-copy-%d", name, i, round)
				twice = append(twice, s)
			}
		}
		ctx := v.readSources(twice)
		narrowed, backed := 0, 0
		for _, s := range sentences {
			body := sentenceBody(s)
			a := v.analyseSentence(body)
			if len(a.flags) == 0 || len(Placeholders(s)) > 0 || verbatimMacro(s, ctx.sources) != "" {
				continue
			}
			c := v.newView(body, a, ctx)
			want, hedged := "", false
			for _, src := range ctx.sources {
				if !c.backs(src, ctx.known) {
					continue
				}
				if v.promises(body) && v.hedgedBy(c, src) != "" {
					hedged = true
					continue
				}
				want = src.id
				break
			}
			if want == "" && !hedged {
				want = v.backedClauseByClause(body, ctx, ctx.sources)
			}
			if _, _, opposite := contradictedInPart(body, polarity(body), ctx.sources); opposite || v.reportsDone(body, a) != "" {
				want = ""
			}
			got := v.checkSentence(s, ModeAnySource, func() checkContext { return ctx }, nil)
			if got.Kept != (want != "") || got.Kept && got.SourceID != want {
				t.Errorf("%s sources, %q: kept %v by %q (%s); trying every source: backed by %q", name, s, got.Kept, got.SourceID, got.Reason, want)
			}
			if want != "" {
				backed++
			}
			if len(ctx.mayBack(a)) < len(twice) {
				narrowed++
			}
		}
		if narrowed == 0 || backed == 0 {
			t.Errorf("%s sources: %d sentences backed, %d with fewer sources to try: the comparison proves nothing", name, backed, narrowed)
		}
	}
}

// TestReadSourcesAnswerAsSources checks that a reply checked against sources read once
// (Input.Read) gets the verdict it gets with the sources themselves, for every reply of a
// run that shares the read sources.
func TestReadSourcesAnswerAsSources(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	var set labelledSet
	readJSON(t, "testdata/faithfulness.json", &set)
	read := v.Read(set.Sources)
	if read.Len() != len(set.Sources) {
		t.Fatalf("read %d sources, want %d", read.Len(), len(set.Sources))
	}
	for _, c := range set.Cases {
		got := v.Check(Input{Reply: c.Sentence, Read: read, Mode: ModeAnySource})
		want := v.Check(Input{Reply: c.Sentence, Sources: set.Sources, Mode: ModeAnySource})
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%q: read once %s, read per check %s", c.Sentence, gotJSON, wantJSON)
		}
	}
}

func readJSON(t *testing.T, path string, into any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
