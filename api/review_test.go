package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/workflows"
)

// The human loop on the real stack: a draft enters the review queue, a reviewer approves
// it, a second draft is killed from the queue, and the help desk reports what it sent.
func TestReviewQueueApproveKillAndSentThroughTheAPI(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	kept, killed := testenv.Unique("RV-"), testenv.Unique("RV-")
	question := "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?"

	v := openDraft(t, ts, kept, question)
	require.NotNil(t, v.Review)
	assert.Equal(t, review.Waiting, v.Review.State)
	openDraft(t, ts, killed, question)

	var queue struct{ Queue []review.Item }
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/review/queue", nil, &queue))
	byTicket := map[string]review.Item{}
	for _, it := range queue.Queue {
		byTicket[it.TicketID] = it
	}
	require.Contains(t, byTicket, kept)
	assert.True(t, byTicket[kept].WindowOpen)
	assert.Equal(t, v.Reply, byTicket[kept].Reply)

	var approved review.Entry
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+kept+"/approve", nil, &approved))
	assert.Equal(t, review.Approved, approved.State, "handed off when the 10-minute window ends")
	assert.NotEmpty(t, approved.DecidedBy, "the reviewer's token name")

	var e struct{ Error string }
	var assigned map[string]string
	require.Equal(t, http.StatusOK, callAs(t, ts, auth.Reviewer, "POST", "/v1/drafts/"+kept+"/assign", map[string]string{"assignee": " Ana "}, &assigned))
	assert.Equal(t, "Ana", assigned["assignee"], "an approved draft in its window can still be assigned")
	assert.Equal(t, http.StatusBadRequest, callAs(t, ts, auth.Reviewer, "POST", "/v1/drafts/"+kept+"/assign", map[string]string{}, &e))
	assert.Contains(t, e.Error, `field "assignee" is required`)
	assert.Equal(t, http.StatusNotFound, callAs(t, ts, auth.Reviewer, "POST", "/v1/drafts/NO-SUCH-TICKET/assign", map[string]string{"assignee": "Ana"}, &e))
	assert.Equal(t, "ticket NO-SUCH-TICKET is not waiting for review", e.Error)
	assert.Equal(t, http.StatusForbidden, callAs(t, ts, auth.Agent, "POST", "/v1/drafts/"+kept+"/assign", map[string]string{"assignee": "Ana"}, nil),
		"agents do not assign reviews")
	notes, err := s.ReviewNotes(t.Context(), kept)
	require.NoError(t, err)
	require.NotEmpty(t, notes)
	last := notes[len(notes)-1]
	assert.Equal(t, []string{"assign", "Ana", approved.DecidedBy}, []string{last.Action, last.Assignee, last.By}, "noted with who assigned it")

	require.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts/"+killed+"/kill", `{"reason": "x", "extra": 1}`, &e))
	assert.Contains(t, e.Error, "extra", "a decision's body is strict JSON")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+killed+"/kill", map[string]string{"reason": "promises a refund outside policy"}, nil))
	var afterKill workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+killed, nil, &afterKill))
	assert.Equal(t, drafts.StatusKilled, afterKill.Status)
	note, err := s.ReviewOf(t.Context(), killed)
	require.NoError(t, err)
	assert.Equal(t, "promises a refund outside policy", note.Reason, "the reason is kept with the decision")
	var reopened workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+killed+"/reopen", nil, &reopened))
	assert.Equal(t, afterKill.Iteration+1, reopened.Iteration, "a new draft from the latest stored revision")
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/NO-SUCH-TICKET/reopen", nil, nil))

	var sent workflows.SentResult
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+kept+"/sent",
		map[string]any{"text": v.Reply + "\n\nBest, Bob", "sent_at": time.Now().UTC(), "agent": "bob"}, &sent))
	assert.Equal(t, drafts.StatusSent, sent.Status)
	assert.True(t, sent.Edited)
	assert.Equal(t, drafts.VerdictOK, sent.Verdict)

	var stored struct {
		hash   string
		edited bool
	}
	require.NoError(t, s.Pool().QueryRow(t.Context(), `SELECT text_sha256, edited FROM sent_replies WHERE ticket_id = $1`, kept).
		Scan(&stored.hash, &stored.edited))
	assert.Equal(t, review.TextHash(v.Reply+"\n\nBest, Bob"), stored.hash, "the hash is kept, never the text")
	assert.True(t, stored.edited)

	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/review/queue", nil, &queue))
	for _, it := range queue.Queue {
		assert.NotEqual(t, kept, it.TicketID, "a sent draft left the queue")
	}
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+kept+"/approve", nil, nil), "the workflow has ended")
}
