package workflows

import "go.temporal.io/sdk/workflow"

// Generation is written into the input of every run this code starts (Open, DraftStarter,
// continue-as-new, RunIntake). A run of generation 1 or later was started after every
// change this package guards with workflow.GetVersion (versionLockedHandlers,
// versionIterationFromState, versionHandOff, versionRecordedFailures, the kill switch's
// check, versionIntakeScreen), so it takes each of them without asking: see version.
//
// The reason is cost, not correctness. The first GetVersion of each change in a run
// records a marker and upserts the TemporalChangeVersion search attribute, and every
// upsert is a visibility write on the Temporal server. A new draft asked two: four events
// and two visibility writes per draft, 14.6% of the dev server's CPU samples while
// `bench workflow` drafted, on a machine the drafts saturate.
//
// In a rolling deploy an older worker may run a run of generation 1 and ask anyway; such a
// history still replays here, since the SDK passes over version markers (and their
// upserts) that the code does not ask for, and a new run's answer was max either way.
//
// A change guarded after this one asks workflow.GetVersion itself, as usual; if it ever
// goes hot, raise Generation and let version answer it for runs of the new generation.
const Generation = 1

// version answers workflow.GetVersion(ctx, changeID, workflow.DefaultVersion, max) for a
// run of the given generation: max with no marker for generation 1 or later; an older run
// (its input has no generation) asks as it did when it was recorded, so it replays.
func version(ctx workflow.Context, generation int, changeID string, max workflow.Version) workflow.Version {
	if generation >= 1 {
		return max
	}
	return workflow.GetVersion(ctx, changeID, workflow.DefaultVersion, max)
}
