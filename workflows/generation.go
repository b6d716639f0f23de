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
// upsert is a visibility write on the Temporal server. A new draft asked two of them:
// two more events and two visibility writes per draft, about 15% of the dev server's CPU
// while `bench workflow` drafts, on a machine the drafts saturate.
//
// A change guarded after this one asks workflow.GetVersion itself, as usual; if it ever
// goes hot, raise Generation and let version answer it for runs of the new generation.
const Generation = 1

// version is workflow.GetVersion(ctx, changeID, workflow.DefaultVersion, max) for a run of
// generation: a run of generation ≥ 1 gets max with no marker, an older run (its input has
// no generation) asks as it did when it was recorded, so its history replays.
func version(ctx workflow.Context, generation int, changeID string, max workflow.Version) workflow.Version {
	if generation >= 1 {
		return max
	}
	return workflow.GetVersion(ctx, changeID, workflow.DefaultVersion, max)
}
