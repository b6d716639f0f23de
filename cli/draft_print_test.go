package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/workflows"
)

// `supportdraft draft` prints the category, the writer's reasoning and the rubric per
// criterion, with the ones nothing scored said so.
func TestPrintDraftShowsQuality(t *testing.T) {
	reply := "Hi,\n\nRefunds take 5 days.\n\nBest regards."
	scores := rubric.Default().Score(reply)
	v := workflows.NewDraftView(agent.Default, &drafts.Saved{TicketID: "T-1", Revision: 1, Iteration: 1, Status: drafts.StatusReady,
		Reply: reply, Rubric: &scores, Category: "refunds", Reasoning: "Quoted the refund timing."})
	var out strings.Builder
	printDraft(&out, v)
	assert.Contains(t, out.String(), "Category: refunds; the writer's reasoning: Quoted the refund timing.")
	assert.Contains(t, out.String(), "Quality (rubric billing-default@1): forbidden_phrases 1.00, human_sounding not scored, brand_vocabulary 1.00, formatting 1.00, tone 1.00")
}
