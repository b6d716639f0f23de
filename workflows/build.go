package workflows

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// postgresRetry is how every step that only reads or writes Postgres is retried, local
// or regular: 0.2, 0.4, 0.8, 1.6 s, then every 2 s, eight attempts spanning about nine
// seconds, so a step in flight rides out a Postgres restart or failover. With five attempts
// (about three seconds) a restart whose recovery took a moment longer on a busy machine
// failed a build ("the database system is starting up" on every attempt; api's
// TestPostgresRestartLosesNoDraftAndNoVerdict, once in a clean-clone CI run).
func postgresRetry() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, MaximumInterval: 2 * time.Second, MaximumAttempts: 8}
}

// dbOptions is for regular activities that only touch Postgres.
func dbOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         postgresRetry(),
	})
}

// localDBOptions is for the steps that only read or write Postgres and are short (load
// context, retrieve, save, and the embedded providers' model steps, which read the ticket
// and the term statistics): they run as local activities, in the workflow's own worker,
// recorded as markers, without a task-queue round trip each.
func localDBOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         postgresRetry(),
	})
}

// modelOptions is for steps that may call a model: longer, fewer attempts; permanent model
// errors are marked non-retryable by the activity.
func modelOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 90 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: 4},
	})
}

// modelStep runs a step that may call a model. For a remote model it is a regular activity:
// long timeout, retried through the server, non-retryable on permanent errors. The
// embedded providers answer in microseconds, so for them the same step runs as a local
// activity, recorded as a marker: a server round trip would be most of its cost. It still
// reads Postgres (the ticket, the term statistics), so it retries as the Postgres steps
// do: with the two attempts of a code step, a build in flight failed on a restart.
func (w *state) modelStep(ctx workflow.Context, activity any, args ...any) workflow.Future {
	if w.localModels {
		return workflow.ExecuteLocalActivity(localDBOptions(ctx), activity, args...)
	}
	return workflow.ExecuteActivity(modelOptions(ctx), activity, args...)
}

// codeOptions is for deterministic steps (span checks, guard, compose). They run as local
// activities: in the worker that holds the workflow, recorded in the history as markers
// with their results, without a round trip through the server's task queues. They fail
// only on a bug, so one retry is plenty.
func codeOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 5 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 2},
	})
}

// build runs one draft iteration, step by step, each a visible activity in the history:
// load context → retrieve (eligible only) → generate → verify spans → judge claims → guard
// → compose → score → save. Steps that call a remote model are regular activities (long
// timeouts, retried by Temporal, non-retryable on permanent errors); the short store and
// code steps, and the model steps of the embedded providers, are local activities,
// recorded as markers, which saves a server round trip each. A failure leaves the
// previous iteration in place; its reason (failureReason: no internal error text) is kept
// in buildErr and in build_failures, and returned, and the status reads failed until a
// build succeeds.
func (w *state) build(ctx workflow.Context) error {
	err := w.buildSteps(ctx)
	w.buildErr = ""
	if err != nil {
		w.buildErr = failureReason(err)
		workflow.GetLogger(ctx).Error("draft build failed", "ticket", w.in.TicketID, "revision", w.revision, "error", err)
		w.recordFailure(ctx)
		return errors.New(w.buildErr)
	}
	return nil
}

func (w *state) buildSteps(ctx workflow.Context) error {
	ref := activities.TicketRef{TicketID: w.in.TicketID, Revision: w.revision}
	var tc activities.TicketFacts
	if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), a.LoadContext, ref, w.in.Replay).Get(ctx, &tc); err != nil {
		return err
	}
	var evidence []policy.Evidence
	if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), a.Retrieve, activities.RetrieveInput{Ticket: ref, At: tc.At, Account: tc.Account}).Get(ctx, &evidence); err != nil {
		return err
	}
	area := activities.Area(w.in.Bucket, evidence) // before the drafter's finds join the evidence
	draft := llm.Answer{Abstain: true, Reply: drafts.NoEvidenceReply}
	if len(evidence) > 0 { // nothing eligible: no model call can ground an answer
		if err := w.modelStep(ctx, a.Generate, activities.GenerateInput{Ticket: ref, At: tc.At, Account: tc.Account, Evidence: evidence, Bucket: w.in.Bucket}).Get(ctx, &draft); err != nil {
			return err
		}
	}
	evidence = mergeEvidence(evidence, draft.Found)
	var checks []drafts.ClaimCheck
	if err := workflow.ExecuteLocalActivity(codeOptions(ctx), a.VerifySpans, activities.SpansInput{Claims: draft.Claims, Evidence: evidence}).Get(ctx, &checks); err != nil {
		return err
	}
	if err := w.modelStep(ctx, a.JudgeClaims, activities.JudgeInput{TicketID: w.in.TicketID, Revision: w.revision, Checks: checks, Evidence: citedBy(checks, evidence)}).Get(ctx, &checks); err != nil {
		return err
	}
	var guarded guard.Result
	if err := workflow.ExecuteLocalActivity(codeOptions(ctx), a.Guard, activities.GuardInput{Reply: draft.Reply, Checks: checks, Evidence: evidence}).Get(ctx, &guarded); err != nil {
		return err
	}
	var comp drafts.Composition
	if err := workflow.ExecuteLocalActivity(codeOptions(ctx), a.Compose, activities.ComposeInput{Draft: draft, Checks: checks, Guarded: guarded, Evidence: evidence, InputNote: tc.InputNote}).Get(ctx, &comp); err != nil {
		return err
	}
	var score activities.Score
	if err := w.modelStep(ctx, a.Score, activities.ScoreInput{Ticket: ref, Reply: comp.Reply, Evidence: evidence, Unsupported: comp.Unsupported, Signals: draft.Signals}).Get(ctx, &score); err != nil {
		return err
	}
	record := drafts.Saved{
		TicketID: w.in.TicketID, Revision: w.revision,
		Status: comp.Status, EligibleAt: tc.At, Account: tc.Account, Reply: comp.Reply, ModelReply: draft.Reply,
		Abstained: comp.Status == drafts.StatusAbstained, Note: comp.Note, Unanswered: draft.Unanswered, Claims: checks, Sentences: guarded.Sentences,
		Bound: comp.Bound, Evidence: evidenceRefs(evidence), Scores: score.Scores, Unsupported: comp.Unsupported,
		Confidence: score.Confidence, CreatedAt: workflow.Now(ctx),
		Rubric: score.Rubric, Category: draft.Category, Reasoning: draft.Reasoning, Signals: draft.Signals,
	}
	if err := w.save(ctx, &record, area); err != nil {
		return err
	}
	w.iteration, w.draft, w.staleReasons = record.Iteration, &record, nil
	return nil
}

// save stores record and numbers it: Save gives it the ticket's next iteration in its own
// transaction and answers the number. Each build is named by the run ID and the run's
// count of saves, which a replay repeats, so a build replayed after a worker died between
// Save and the end of its workflow task finds its own row and keeps its number.
func (w *state) save(ctx workflow.Context, record *drafts.Saved, area string) error {
	w.builds++
	key := fmt.Sprintf("%s/%d", workflow.GetInfo(ctx).WorkflowExecution.RunID, w.builds)
	return workflow.ExecuteLocalActivity(localDBOptions(ctx), a.Save, *record, area, key).Get(ctx, &record.Iteration)
}

// mergeEvidence adds the snippets a tool-using drafter found by searching, once each: a
// drafter that reports a retrieved chunk as found again must not bind or list it twice.
func mergeEvidence(retrieved, found []policy.Evidence) []policy.Evidence {
	have := map[string]bool{}
	for _, e := range retrieved {
		have[e.ChunkID] = true
	}
	for _, e := range found {
		if !have[e.ChunkID] {
			have[e.ChunkID] = true
			retrieved = append(retrieved, e)
		}
	}
	return retrieved
}

// citedBy is the evidence that span-checked claims cite: all the judge reads. The judge's
// input is kept in the history, so it gets these few chunks rather than all twenty.
func citedBy(checks []drafts.ClaimCheck, evidence []policy.Evidence) []policy.Evidence {
	var out []policy.Evidence
	for _, e := range evidence {
		if slices.ContainsFunc(checks, func(c drafts.ClaimCheck) bool { return c.SpanOK && slices.Contains(c.ChunkIDs, e.ChunkID) }) {
			out = append(out, e)
		}
	}
	return out
}

func evidenceRefs(evidence []policy.Evidence) []drafts.EvidenceRef {
	out := make([]drafts.EvidenceRef, len(evidence))
	for i, e := range evidence {
		out[i] = drafts.EvidenceRef{ChunkID: e.ChunkID, Score: e.Score}
	}
	return out
}
