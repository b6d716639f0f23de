package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

// The probe's finding: an agent token opened T-1001 with revision 3 and account
// enterprise/us and had the draft rebuilt for that account. Now an agent may name a stored
// ticket but not change its account or add a revision; the help desk's signed calls may.
func TestOnlyTheHelpDeskSetsAccountAndRevision(t *testing.T) {
	t.Parallel()
	ts, _ := stackAPI(t)
	id := testenv.Unique("FACTS-")
	var v workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, "Can I get a refund?"), &v))
	require.Equal(t, "pro", v.Account.Plan)

	forged := testenv.Ticket(id, 3, "enterprise", "us", asked, "Can I get a refund?")
	var e struct{ Error string }
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts", forged, &e), "a new revision from an agent")
	assert.Contains(t, e.Error, `"revision" is 3`)
	sameRevision := testenv.Ticket(id, 1, "enterprise", "us", asked, "Can I get a refund?")
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts", sameRevision, &e), "another account from an agent")
	assert.Contains(t, e.Error, "account facts come only from the help desk")
	unknown := testenv.Ticket(testenv.Unique("FACTS-NEW-"), 3, "pro", "eu", asked, "Refund?")
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts", unknown, &e), "a first open past revision 1")

	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &v))
	assert.Equal(t, "pro", v.Account.Plan, "the draft is still built for the stored account")
	assert.Equal(t, 1, v.Revision)

	// The help desk's signed open is the account's source: it may move the ticket on.
	require.Equal(t, http.StatusOK, callAs(t, ts, auth.Helpdesk, "POST", "/v1/drafts", testenv.Ticket(id, 2, "team", "eu", asked, "Can I get a refund?"), &v))
	assert.Equal(t, "team", v.Account.Plan)
	assert.Equal(t, 2, v.Revision)
	// An agent naming the ticket with the help desk's facts opens the latest revision.
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", testenv.Ticket(id, 1, "team", "eu", asked, "Can I get a refund?"), &v))
	assert.Equal(t, 2, v.Revision)
}
