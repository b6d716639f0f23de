package guard

import (
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// The local drafter writes replies of sentences copied from eligible sections. A sentence
// copied word for word from a section must then be kept when that section is its source:
// a strike there puts a false "not covered" note on a reply that only quotes policy. Every
// sentence of three knowledge bases (the team's, and two help centers written by others)
// is checked, as the drafter would quote it, against its own section alone.
func TestVerbatimSentencesOfASectionAreKept(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	// Struck, and why that is acceptable: none is a sentence a reply should quote.
	known := map[string]string{
		"We will do our best to help.": "a promise about nothing the section names",
		"Credits upon downgrade.":      "a bold label, not a statement",
		"# Use path from step 1.":      "a comment inside a code block",
		"# Cache the script for 5 minutes, as long as plausible.io returns a valid response.":                           "a comment inside a code block",
		"# and is readable (including all its parent directories) by your nginx worker user.":                           "a comment inside a code block",
		"# make sure to run `echo \"D /var/run/nginx-cache 0755 root root -\" > /usr/lib/tmpfiles.d/nginx-cache.conf`.": "a comment inside a code block",
	}
	checked := 0
	for _, dir := range []string{"../evals/corpus", "../evals/helpcenter/corpus", "../evals/supabase/corpus"} {
		versions, err := policy.ParseDir(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, ver := range versions {
			for _, c := range ver.Chunks {
				read := v.Read([]policy.Evidence{{ChunkID: c.ID, Text: c.Text, Title: ver.Title}})
				heading, _, _ := strings.Cut(c.Text, "\n")
				sentences, lines := text.SplitLinesNumbered(c.Text)
				for i, s := range sentences {
					// The drafter quotes no heading (its first line, or a numbered step's), question, fragment or section for agents.
					titled := strings.Contains(c.Text, "\n") && !strings.HasSuffix(strings.TrimSpace(heading), ".")
					if s == strings.TrimSpace(heading) || titled && lines[i] == 0 || len(strings.Fields(s)) < 3 || strings.HasSuffix(s, "?") {
						continue
					}
					checked++
					res := v.Check(Input{Reply: text.EndSentence(s), Read: read, Mode: ModeAnySource})
					for _, r := range res.Sentences {
						agentsOnly := strings.HasPrefix(r.Reason, "quotes guidance written for support agents")
						if r.Kept || !r.Flagged || len(r.Placeholders) > 0 || agentsOnly || known[r.Text] != "" {
							continue
						}
						t.Errorf("%s: %q struck: %s", c.ID, r.Text, r.Reason)
					}
				}
			}
		}
	}
	if checked < 5000 {
		t.Fatalf("checked %d sentences; the knowledge bases under evals/ hold more than 5,000", checked)
	}
}
