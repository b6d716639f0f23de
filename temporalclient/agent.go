package temporalclient

import (
	"context"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/agent"
)

// agentHeader is the Temporal header that carries the agents a workflow or activity acts for.
const agentHeader = "supportdraft-agent"

type workflowAgentKey struct{}

// AgentPropagator carries agent.IDs from the context that starts, signals or updates a
// workflow into the workflow's context, and from there into every activity it runs, so an
// activity's store calls act for the workflow's agent without an argument saying so. The
// header lives in the history, so a replay sees the same agent. A workflow started with
// no header (before agents existed) acts for the default agent.
type AgentPropagator struct{}

// EncodeHeaders has the client's codec encrypt the header like every other payload.
func (AgentPropagator) EncodeHeaders() bool { return true }

// Inject writes the caller's agents into the headers.
func (AgentPropagator) Inject(ctx context.Context, w workflow.HeaderWriter) error {
	return writeAgents(agent.IDs(ctx), w)
}

// Extract puts the agents of the headers on an activity's context.
func (AgentPropagator) Extract(ctx context.Context, r workflow.HeaderReader) (context.Context, error) {
	ids, err := readAgents(r)
	if err != nil || ids == nil {
		return ctx, err
	}
	return agent.With(ctx, ids...), nil
}

// InjectFromWorkflow writes the workflow's agents into the headers of what it schedules.
func (AgentPropagator) InjectFromWorkflow(ctx workflow.Context, w workflow.HeaderWriter) error {
	return writeAgents(WorkflowAgents(ctx), w)
}

// ExtractToWorkflow puts the agents of the headers on the workflow's context.
func (AgentPropagator) ExtractToWorkflow(ctx workflow.Context, r workflow.HeaderReader) (workflow.Context, error) {
	ids, err := readAgents(r)
	if err != nil || ids == nil {
		return ctx, err
	}
	return workflow.WithValue(ctx, workflowAgentKey{}, ids), nil
}

// WorkflowAgents are the agents a workflow acts for: those of the context that started
// it, or the default agent.
func WorkflowAgents(ctx workflow.Context) []string {
	if ids, ok := ctx.Value(workflowAgentKey{}).([]string); ok && len(ids) > 0 {
		return ids
	}
	return []string{agent.Default}
}

func writeAgents(ids []string, w workflow.HeaderWriter) error {
	p, err := converter.GetDefaultDataConverter().ToPayload(ids)
	if err != nil {
		return err
	}
	w.Set(agentHeader, p)
	return nil
}

func readAgents(r workflow.HeaderReader) ([]string, error) {
	p, ok := r.Get(agentHeader)
	if !ok {
		return nil, nil
	}
	var ids []string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &ids); err != nil {
		return nil, err
	}
	return ids, nil
}
