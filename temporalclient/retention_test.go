package temporalclient_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/temporalclient"
)

// The namespace's retention follows SUPPORTDRAFT_RETENTION on the real server, and a
// second call with the same value changes nothing. The test works on a namespace of its
// own so the shared dev server's default namespace keeps its settings.
func TestNamespaceRetentionFollowsTheConfiguredRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := testenv.Temporal(t)
	ns := testenv.Unique("test-retention-")
	_, err := c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace: ns, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour)})
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = c.OperatorService().DeleteNamespace(context.Background(), &operatorservice.DeleteNamespaceRequest{Namespace: ns})
	})

	ninety := 90 * 24 * time.Hour
	before, err := temporalclient.SetNamespaceRetention(ctx, c, ns, ninety)
	require.NoError(t, err)
	assert.Equal(t, 24*time.Hour, before)
	desc, err := c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ns})
	require.NoError(t, err)
	assert.Equal(t, ninety, desc.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration())

	before, err = temporalclient.SetNamespaceRetention(ctx, c, ns, ninety)
	require.NoError(t, err)
	assert.Equal(t, ninety, before, "already set: nothing to change")
}
