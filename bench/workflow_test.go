package bench

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
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
	if res.WarmUpMaxMs <= 0 || res.P50Ms <= 0 || res.SendCheckP99Ms <= 0 {
		t.Errorf("figures missing: warm-up max %.1f, p50 %.1f, send-check p99 %.1f", res.WarmUpMaxMs, res.P50Ms, res.SendCheckP99Ms)
	}
	// One workflow task per timed draft (the open update and its build): a warm-up draft's
	// tasks would make it more.
	if res.Tasks.Tasks != 3 {
		t.Errorf("workflow tasks of %d drafts in the breakdown, want 3", res.Tasks.Tasks)
	}
}
