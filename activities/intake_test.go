package activities_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/ticket"
)

// Triage reads a message its classifier finds no billing topic in against the eligible
// policy in Postgres: one the sample corpus's billing-period policy answers is drafted for
// review in the bucket its closest section names, a product question stays not billing.
func TestTriageGroundsNotBillingInEligiblePolicy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	message := func(id, subject, body string) activities.MessageRef {
		require.NoError(t, s.SaveMessage(ctx, &inbox.Message{MessageID: id, ThreadID: id, ReceivedAt: at,
			From: inbox.Address{Email: "ana@customer.example"}, To: []string{"billing@company.example"}, Subject: subject, Body: body,
			Account: &ticket.Account{ID: "A-1", Plan: "pro", Region: "eu"}}))
		return activities.MessageRef{MessageID: id}
	}
	intake := &activities.Intake{Store: s, Triager: inbox.Classifier{}, Retriever: testenv.Activities(t, s, nil).Retriever}

	billing := message("<stop@customer.example>", "No longer using it",
		"We no longer use the workspace. How do we make sure nothing more is charged after the current billing period?")
	tr, err := inbox.Classifier{}.Triage(ctx, &inbox.Message{Subject: "No longer using it",
		Body: "We no longer use the workspace. How do we make sure nothing more is charged after the current billing period?"})
	require.NoError(t, err)
	require.Equal(t, inbox.BucketNotBilling, tr.Bucket, "the test needs a message the classifier's cues miss")
	got, err := intake.Triage(ctx, billing)
	require.NoError(t, err)
	assert.True(t, got.Unsure, "the policy answers it: drafted for review (%s)", got.Reason)
	assert.NotEqual(t, inbox.BucketNotBilling, got.Bucket, "the bucket the closest section names: %s", got.Reason)

	product := message("<crash@customer.example>", "App crashes", "The Android app crashes every time I open the reports tab. Is there a fix?")
	got, err = intake.Triage(ctx, product)
	require.NoError(t, err)
	assert.False(t, got.Unsure, got.Reason)
	assert.Equal(t, inbox.BucketNotBilling, got.Bucket)
}

// Drafting scores with the embedded calibration mapping, the one the eval reports on: the
// stack's activities carry it, and a judge's raw 0.85 is read through it.
func TestActivitiesCalibrateWithTheEmbeddedMapping(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	acts := testenv.Activities(t, s, nil)
	want := calibration.Default()
	require.True(t, len(want.Points) > 0 || want.Logistic != nil, "the embedded mapping is fitted: %+v", want)
	assert.Equal(t, want.Version, acts.Calibration.Version)
	assert.Equal(t, want.Method, acts.Calibration.Method)
	assert.Equal(t, want.Apply(0.85), acts.Calibration.Apply(0.85))
	assert.NotEqual(t, 0.85, acts.Calibration.Apply(0.85), "the mapping must change the raw score somewhere")
}

// An agent whose settings give its own rules and buckets has its mail screened and
// triaged with them; the default agent's mail keeps the deployment's. The settings are
// the sample payments agent's file, stored as `supportdraft agent create --file` does.
func TestIntakeUsesTheAgentsOwnRulesAndBuckets(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	payments, err := agent.LoadFile(filepath.Join("..", "evals", "agents", "payments", "agent.yaml"))
	require.NoError(t, err)
	require.NoError(t, s.CreateAgent(context.Background(), payments))
	support, err := inbox.NewSupport(payments.Addresses)
	require.NoError(t, err)
	intake := &activities.Intake{Store: s, Rules: &inbox.Rules{}, Support: support, Triager: inbox.Classifier{},
		TriagerFor: func(b inbox.BucketSet) inbox.Triager { return inbox.Classifier{Buckets: b} }}
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		agent, bucket string
		review        bool
	}{{"payments", "chargebacks", true}, {agent.Default, "refunds", false}} {
		ctx := agent.With(context.Background(), tc.agent)
		id := "<dispute-" + tc.agent + "@merchant.example>"
		require.NoError(t, s.SaveMessage(ctx, &inbox.Message{MessageID: id, ThreadID: id, ReceivedAt: at,
			From: inbox.Address{Email: "owner@merchant.example"}, To: []string{"payments@tillpoint.example"},
			Subject: "Chargeback on order 5512", Body: "A cardholder opened a chargeback on order 5512 and wants a refund. " +
				"Our solicitor says we should send evidence. What is the deadline for the evidence?"}))
		got, err := intake.Triage(ctx, activities.MessageRef{MessageID: id})
		require.NoError(t, err)
		assert.Equal(t, tc.bucket, got.Bucket, "%s: %s", tc.agent, got.Reason)
		screen, err := intake.Screen(ctx, activities.MessageRef{MessageID: id})
		require.NoError(t, err)
		assert.Equal(t, tc.review, screen.Filters.Outcome == inbox.OutcomeReview,
			"%s: the payments rules force review on a solicitor, the deployment's (none here) do not: %+v", tc.agent, screen.Filters)
	}
}
