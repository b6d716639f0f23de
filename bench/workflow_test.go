package bench

import (
	"context"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
)

// TestWorkflowBenchKeepsWarmUpOutOfTheFigures runs bench workflow small on the real stack:
// the warm-up drafts run, are reported on their own, and are in no timed figure (the
// workflow-task breakdown counts the timed drafts' tasks only). It asserts nothing about
// time.
func TestWorkflowBenchKeepsWarmUpOutOfTheFigures(t *testing.T) {
	t.Parallel()
	testenv.Temporal(t) // fails early, with how to start it, when TEMPORAL_ADDRESS is unset
	res, err := Workflow(context.Background(), testdb.URL(t), os.Getenv("TEMPORAL_ADDRESS"), WorkflowOptions{
		Drafts: 3, Concurrency: 2, Corpus: testenv.SampleCorpus(), Progress: io.Discard, Codec: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Drafts != 3 || res.WarmUpDrafts != 2*warmUpWaves {
		t.Errorf("drafts %d, warm-up drafts %d; want 3 and %d", res.Drafts, res.WarmUpDrafts, 2*warmUpWaves)
	}
	if res.WarmUpMaxMs <= 0 || res.WarmUpCheckMaxMs <= 0 || res.P50Ms <= 0 || res.SendCheckP99Ms <= 0 {
		t.Errorf("figures missing: warm-up max %.1f, warm-up send-check max %.1f, p50 %.1f, send-check p99 %.1f",
			res.WarmUpMaxMs, res.WarmUpCheckMaxMs, res.P50Ms, res.SendCheckP99Ms)
	}
	// One workflow task per timed draft (the open update and its build): a warm-up draft's
	// tasks would make it more.
	if res.Tasks.Tasks != 3 {
		t.Errorf("workflow tasks of %d drafts in the breakdown, want 3", res.Tasks.Tasks)
	}
}

// TestCopiesRenameEveryCopy checks what --copies imports beside the corpus: each further
// copy under new document and chunk IDs (an import refuses a version stored
// twice with other content, and a guard naming a copy's chunk must name that copy), and
// the parsed corpus itself untouched.
func TestCopiesRenameEveryCopy(t *testing.T) {
	t.Parallel()
	versions, err := policy.ParseDir(testenv.SampleCorpus())
	if err != nil {
		t.Fatal(err)
	}
	firstChunk := versions[0].Chunks[0].ID
	extra := extraCopies(versions, 3)
	if len(extra) != 2*len(versions) {
		t.Fatalf("%d versions, want %d", len(extra), 2*len(versions))
	}
	seen := map[string]bool{}
	for _, v := range append(slices.Clone(versions), extra...) {
		for _, c := range v.Chunks {
			if seen[c.ID] {
				t.Errorf("chunk %s imported twice", c.ID)
			}
			seen[c.ID] = true
			if !strings.HasPrefix(c.ID, v.DocID+"@") {
				t.Errorf("chunk %s of %s names another document", c.ID, v.DocID)
			}
		}
	}
	if versions[0].Chunks[0].ID != firstChunk {
		t.Errorf("the corpus itself was renamed: %s, was %s", versions[0].Chunks[0].ID, firstChunk)
	}
	if got := extra[len(versions)].DocID; got != versions[0].DocID+"-copy3" {
		t.Errorf("third copy's first document %s, want %s-copy3", got, versions[0].DocID)
	}
}
