package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/inbox"
)

// TestIntakeReplayCommand runs `supportdraft intake replay` as the CLI does, on a small
// labelled fixture (one message per stage, the first repeated at the end), against the
// real Postgres and Temporal: the table, the JSON contract, and a second replay that
// reports the same, since each replay has its own scratch schema and workflow IDs. Not
// parallel: it sets DATABASE_URL.
func TestIntakeReplayCommand(t *testing.T) {
	scratchDB(t)
	t.Setenv("SUPPORTDRAFT_SUPPORT_ADDRESSES", "billing@desk.example")
	messages := filepath.Join("testdata", "intake", "messages.jsonl")
	rules := filepath.Join("testdata", "intake", "rules.yaml")

	out, err, _ := run(t, newIntakeReplayCmd(), "--messages", messages, "--rules", rules)
	require.NoError(t, err)
	for _, line := range []string{"messages in", "stopped: duplicate", "stopped: automated", "drafted", "forced to review",
		"decision accuracy", "genuine dropped"} {
		assert.Contains(t, out, line)
	}
	assert.Regexp(t, `messages in\s+7\n`, out)
	assert.Regexp(t, `drafted\s+2 \(29% of intake\)`, out)

	var reports [2]inbox.Report
	for i := range reports {
		out, err, _ := run(t, newIntakeReplayCmd(), "--messages", messages, "--rules", rules, "--json")
		require.NoError(t, err)
		require.NoError(t, json.NewDecoder(strings.NewReader(out)).Decode(&reports[i]), out)
	}
	r := reports[0]
	assert.Equal(t, 7, r.Messages)
	assert.Equal(t, inbox.StageCounts{Duplicate: 1, NotFirst: 1, Automated: 1, RulesBlock: 1, NoResponse: 1}, r.Stages)
	assert.Equal(t, 2, r.Drafted)
	assert.Equal(t, 1, r.ForcedReview)
	require.NotNil(t, r.DecisionAccuracy)
	assert.InDelta(t, 1.0, *r.DecisionAccuracy, 1e-9)
	require.NotNil(t, r.GenuineDropped)
	assert.Zero(t, *r.GenuineDropped)
	require.Len(t, r.Decisions, 7)
	assert.Equal(t, "<r1@oakfield.example>", r.Decisions[6].MessageID)
	assert.Equal(t, inbox.StageDuplicate, r.Decisions[6].Stage, "a message repeated inside the file is a duplicate")
	assert.Equal(t, inbox.DecisionReview, r.Decisions[4].Decision, "support only in bcc is forced to review")
	assert.Equal(t, reports[0], reports[1], "a second replay of the same file gives the same report")
}

// `intake replay --agent payments` runs from the repository's root with the sample's own
// messages, rules, corpus, addresses and buckets, and names the agent on the report; an
// agent with no sample is a usage error that says so. Not parallel: it sets DATABASE_URL
// and changes directory.
func TestIntakeReplayAgent(t *testing.T) {
	scratchDB(t)
	t.Chdir("..")
	out, err, _ := run(t, newIntakeReplayCmd(), "--agent", "payments", "--json")
	require.NoError(t, err)
	var r inbox.Report
	require.NoError(t, json.NewDecoder(strings.NewReader(out)).Decode(&r), out)
	assert.Equal(t, "payments", r.Agent)
	assert.GreaterOrEqual(t, r.Messages, 60)
	require.NotNil(t, r.BucketAccuracy)
	assert.GreaterOrEqual(t, *r.BucketAccuracy, 0.90, "payments mail sorted into the payments buckets")
	assert.Zero(t, *r.GenuineDropped)

	_, err, code := run(t, newIntakeReplayCmd(), "--agent", "ledger")
	require.Error(t, err)
	assert.Equal(t, 2, code, "a usage error")
	assert.Contains(t, err.Error(), `agent "ledger" has no sample`)
}

// The table ends with the labelled messages decided otherwise, each with what its label
// wants, what the funnel did and why: what a support engineer tunes rules and cues from.
func TestPrintFunnelListsMisses(t *testing.T) {
	t.Parallel()
	r := inbox.Report{Messages: 2, Misses: []inbox.Miss{{MessageID: "<m1@customer.example>", Want: "draft refunds",
		Got: "review not_billing", Reason: "no cue of any bucket"}}}
	var out strings.Builder
	require.NoError(t, printFunnel(&out, r))
	assert.Regexp(t, `labelled otherwise \(1\)\s+want\s+got\s+reason\n\s+<m1@customer\.example>\s+draft refunds\s+review not_billing\s+no cue of any bucket\n`, out.String())

	out.Reset()
	r.Misses = slices.Repeat(r.Misses, maxMissRows+3)
	require.NoError(t, printFunnel(&out, r))
	assert.Equal(t, maxMissRows, strings.Count(out.String(), "<m1@customer.example>"))
	assert.Contains(t, out.String(), "… and 3 more (--json has every decision)")

	out.Reset()
	require.NoError(t, printFunnel(&out, inbox.Report{Messages: 2}))
	assert.NotContains(t, out.String(), "labelled otherwise", "nothing to list when every label is met")
}
