package workflows_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// An edit with the words in clear, or whose reference does not
// resolve to the words it names, never gets in: the history stays free of the agent's text.
func TestEditByReferenceOnly(t *testing.T) {
	h := newHarness(t, nil)
	testenv.SaveTicket(t, h.store, testenv.Ticket("T-9b", 1, "pro", "eu", now, refundQuestion))
	ref, err := h.store.SaveAgentText(context.Background(), "T-9b", store.TextEdit, "We will refund you.")
	require.NoError(t, err)
	forged := drafts.TextRef{ID: ref.ID, SHA256: drafts.TextSHA256("We will refund you twice.")}
	var refusals, failures []string
	edit := func(arg any) {
		h.send(workflows.UpdateEdit, func(err error) { refusals = append(refusals, err.Error()) }, func(_ any, err error) {
			if err != nil {
				failures = append(failures, err.Error())
			}
		}, arg)
	}
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	edit(map[string]string{"text": "Dear Jane, we will refund you."}) // refused
	edit(workflows.EditRequest{})                                     // refused
	edit(workflows.EditRequest{Ref: &forged})                         // accepted, then fails
	h.update(workflows.UpdateDiscard, nil)
	h.run("T-9b", 1)
	require.Len(t, refusals, 2)
	assert.Contains(t, refusals[0], "ref must name", "words in clear never enter the history")
	assert.Contains(t, refusals[1], "ref must name")
	require.Len(t, failures, 1, "a reference whose words do not match its hash fails")
	assert.Contains(t, failures[0], "does not match its SHA-256")
	assert.Empty(t, h.latest("T-9b").EditedText)
}
