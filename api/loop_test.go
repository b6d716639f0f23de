package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

// Mail from our own support address, or carrying X-Loop, is a loop: skipped as
// automated, never drafted.
func TestMailLoopsAreSkipped(t *testing.T) {
	t.Parallel()
	ts, _ := inboxAPI(t)
	own := testenv.Unique("th-own-")
	fromUs := message("<"+own+"@company.example>", own, 0, "Re: Refund", "Can we still get a refund of the annual charge?")
	fromUs.From = inbox.Address{Email: "Billing+eu@company.example", Name: "Billing"}
	looped := testenv.Unique("th-loop-")
	withLoop := message("<"+looped+"@customer.example>", looped, 0, "Refund", "Can we still get a refund of the annual charge?")
	withLoop.Headers = map[string]string{"X-Loop": "helpdesk@company.example"}
	for _, m := range []*inbox.Message{fromUs, withLoop} {
		var res workflows.IntakeResult
		require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", m, &res))
		assert.Equal(t, inbox.DecisionSkip, res.Decision.Decision, m.ThreadID)
		assert.Equal(t, inbox.StageAutomated, res.Stage, m.ThreadID)
		assert.Contains(t, res.Decision.Reason, "loop", m.ThreadID)
		assert.Equal(t, http.StatusNotFound, call(t, ts, "GET", "/v1/drafts/"+m.ThreadID, nil, nil), "no draft for %s", m.ThreadID)
	}
}
