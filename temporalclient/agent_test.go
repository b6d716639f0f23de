package temporalclient_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/temporalclient"
)

// seen is what a probe workflow and its activity each acted for.
type seen struct {
	Workflow []string
	Activity []string
}

func agentsOfActivity(ctx context.Context) ([]string, error) { return agent.IDs(ctx), nil }

func agentProbe(ctx workflow.Context) (seen, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	s := seen{Workflow: temporalclient.WorkflowAgents(ctx)}
	err := workflow.ExecuteActivity(ctx, agentsOfActivity).Get(ctx, &s.Activity)
	return s, err
}

// A workflow started under an agent's context, on a client built by Settings.Apply, acts
// for that agent, and so does the activity it runs, with no argument naming it; one
// started with no agent acts for the default agent.
func TestWorkflowsAndActivitiesActForTheStartersAgent(t *testing.T) {
	t.Parallel()
	c := dial(t, temporalclient.Settings{})
	tq := testenv.Unique("test-agent-")
	w := sdkworker.New(c, tq, sdkworker.Options{})
	w.RegisterWorkflow(agentProbe)
	w.RegisterActivity(agentsOfActivity)
	require.NoError(t, w.Start())
	defer w.Stop()

	run := func(ctx context.Context) seen {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: testenv.Unique("agent-probe-"), TaskQueue: tq}, agentProbe)
		require.NoError(t, err)
		var s seen
		require.NoError(t, r.Get(ctx, &s))
		return s
	}
	assert.Equal(t, seen{Workflow: []string{"payments"}, Activity: []string{"payments"}}, run(agent.With(context.Background(), "payments")))
	assert.Equal(t, seen{Workflow: []string{agent.Default}, Activity: []string{agent.Default}}, run(context.Background()))
}
