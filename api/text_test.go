package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testenv"
)

// An edit answers the guard's sentence-by-sentence checks, read back from the store by the
// text's ID; an edit or send-check that no draft takes leaves no kept text behind.
func TestEditTextKeptOnlyWhenADraftTakesIt(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	id := testenv.Unique("TXT-")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked,
		"Our annual Pro plan renewed five days ago. Can we still get a refund?"), nil))

	var checked guard.Result
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/edit",
		map[string]string{"text": "Hi. We will refund you within 60 days."}, &checked))
	require.Len(t, checked.Sentences, 2)
	assert.Equal(t, "We will refund you within 60 days.", checked.Sentences[1].Text, "the API answers the checks with the words")
	assert.False(t, checked.Sentences[1].Kept, "no policy promises 60 days")

	unknown := testenv.Unique("NONE-")
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+unknown+"/edit", map[string]string{"text": "Hi there."}, nil))
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+unknown+"/send-check", map[string]string{"text": "Hi there."}, nil))
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/discard", nil, nil))
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+id+"/edit", map[string]string{"text": "Too late."}, nil), "the run has ended")

	var kept, orphans int
	require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE ticket_id = $1),
		count(*) FILTER (WHERE ticket_id = $2 OR text = 'Too late.') FROM agent_texts`, id, unknown).Scan(&kept, &orphans))
	assert.Equal(t, 1, kept, "the one edit the draft took")
	assert.Zero(t, orphans, "refused edits and send-checks leave no row")
}
