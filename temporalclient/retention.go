package temporalclient

import (
	"context"
	"fmt"
	"time"

	namespacepb "go.temporal.io/api/namespace/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"
)

// SetNamespaceRetention makes the namespace keep closed workflows' histories for
// retention, the same time the database keeps ticket text: a history holds the IDs and
// verdicts a purged draft still has, and nothing should outlive the text it refers to by
// much. It changes the namespace only when it differs, and answers what it found. The
// worker calls it at start; on Temporal Cloud, or wherever namespaces belong to an
// operator, the worker's credentials may not allow it, and the caller only logs that.
func SetNamespaceRetention(ctx context.Context, c client.Client, namespace string, retention time.Duration) (before time.Duration, err error) {
	desc, err := c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	if err != nil {
		return 0, fmt.Errorf("describe namespace %s: %w", namespace, err)
	}
	before = desc.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration()
	if before == retention {
		return before, nil
	}
	_, err = c.WorkflowService().UpdateNamespace(ctx, &workflowservice.UpdateNamespaceRequest{
		Namespace: namespace,
		// Only the retention is set: the server leaves the namespace's other settings as they are.
		Config: &namespacepb.NamespaceConfig{WorkflowExecutionRetentionTtl: durationpb.New(retention)},
	})
	if err != nil {
		return before, fmt.Errorf("set retention of namespace %s to %s: %w", namespace, retention, err)
	}
	return before, nil
}
