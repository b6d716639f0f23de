package activities_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/openai"
	"github.com/supportdraft/supportdraft/rubric"
)

const quotedWindow = "Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date."

// Score runs the rubric on every draft. With the local judge, code scores four criteria
// and human-sounding says it was not scored; with a model judge (the OpenAI judge on the
// in-process server) the model's human-sounding and tone scores join, the lower tone
// reading standing, and the model hears the rubric's guidance.
func TestScoreRunsTheRubric(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testdb.Tx(t)
	in := activities.ScoreInput{Ticket: saveRefundTicket(t, s, "T-rubric"), Reply: "Hi,\n\n" + quotedWindow + "\n\nBest regards."}

	local, err := testenv.Activities(t, s, nil).Score(ctx, in)
	require.NoError(t, err)
	require.NotNil(t, local.Rubric)
	assert.Equal(t, "billing-default@1", local.Rubric.Rubric)
	assert.False(t, local.Rubric.Get(rubric.HumanSounding).Scored(), "no model: not scored, never a made-up number")
	tone := local.Rubric.Get(rubric.Tone)
	assert.Equal(t, rubric.ByCode, tone.By)
	assert.Equal(t, 1.0, tone.Value())

	srv := llmtest.New(t)
	srv.Chat(
		llmtest.JSON(map[string]any{"faithfulness": 1, "coverage": 0.9, "fit": 1}),
		llmtest.JSON(map[string]any{"human_sounding": 0.6, "tone": 0.8, "reasoning": "The sign-off is stiff."}),
	)
	cfg := openai.Config{BaseURL: srv.URL, APIKey: "test-key", DraftModel: "draft-model", JudgeModel: "judge-model"}
	remote := testenv.Activities(t, s, nil)
	remote.Judge = openai.NewJudge(openai.NewClient(cfg), cfg)
	got, err := remote.Score(ctx, in)
	require.NoError(t, err)
	h := got.Rubric.Get(rubric.HumanSounding)
	assert.Equal(t, rubric.ByModel, h.By)
	assert.Equal(t, 0.6, h.Value())
	assert.Equal(t, "judge model: The sign-off is stiff.", h.Findings[0].Rule)
	tone = got.Rubric.Get(rubric.Tone)
	assert.Equal(t, rubric.ByCodeModel, tone.By)
	assert.Equal(t, 0.8, tone.Value(), "the lower of code's 1 and the model's 0.8")
	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 2)
	assert.Contains(t, string(reqs[1].Body), "no boilerplate", "the rubric's human-sounding guidance reaches the model")
}

// An agent whose file names its own rubric has its drafts scored with it; the default
// agent's keep the deployment's. The rubric travels in the agent's row, read once at load.
func TestScoreUsesTheAgentsRubric(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	testdata, err := filepath.Abs("testdata")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "payments.yaml")
	require.NoError(t, os.WriteFile(file, []byte("id: payments\nname: Payments\nrubric: "+
		filepath.Join(testdata, "payments-rubric.yaml")+"\n"), 0o600))
	payments, err := agent.LoadFile(file)
	require.NoError(t, err)
	require.NotEmpty(t, payments.RubricYAML)
	require.NoError(t, s.CreateAgent(context.Background(), payments))
	at := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	acts := testenv.Activities(t, s, nil)
	for _, tc := range []struct {
		agent, rubric string
		forbidden     float64
	}{{"payments", "payments@2", 0}, {agent.Default, "billing-default@1", 1}} {
		ctx := agent.With(context.Background(), tc.agent)
		id := "T-rubric-" + tc.agent
		require.NoError(t, s.SaveTicket(ctx, testenv.Ticket(id, 1, "pro", "eu", at, "When do the funds arrive?")))
		got, err := acts.Score(ctx, activities.ScoreInput{Ticket: activities.TicketRef{TicketID: id, Revision: 1},
			Reply: "Hi,\n\nYour funds are guaranteed to arrive within 2 days.\n\nBest regards."})
		require.NoError(t, err)
		assert.Equal(t, tc.rubric, got.Rubric.Rubric, tc.agent)
		assert.Equal(t, tc.forbidden, got.Rubric.Get(rubric.ForbiddenPhrases).Value(), tc.agent)
	}
}
