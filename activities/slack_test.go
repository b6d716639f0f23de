package activities_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/slackreview"
)

// An agent whose file names its own reviewers' channel has its queued drafts posted there
// with the deployment's bot; the default agent's go to the deployment's channel. The fake
// answers chat.postMessage as Slack's Web API does.
func TestNotifyReviewersPostsToTheAgentsChannel(t *testing.T) {
	var mu sync.Mutex
	var channels []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		channels = append(channels, r.PostForm.Get("channel"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok": true, "channel": "` + r.PostForm.Get("channel") + `", "ts": "1733300000.000100"}`))
	}))
	defer srv.Close()
	s, _ := testdb.New(t)
	ctx := context.Background()
	require.NoError(t, s.CreateAgent(ctx, agent.Agent{ID: "payments", Name: "Payments",
		Settings: agent.Settings{Slack: &agent.Slack{Channel: "C0PAYMENTS"}}}))
	acts := &activities.Activities{Store: s, Slack: slackreview.NewPoster("xoxb-test", "C0REVIEW", srv.URL+"/api/")}
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for _, id := range []string{agent.Default, "payments"} {
		actx := agent.With(ctx, id)
		ticketID := "T-slack-" + id
		require.NoError(t, s.SaveTicket(actx, testenv.Ticket(ticketID, 1, "pro", "eu", at, "When do refunds arrive?")))
		saveReadyDraft(t, actx, s, ticketID, 1, at)
		_, err := acts.NotifyReviewers(actx, activities.NotifyInput{TicketID: ticketID, Iteration: 1})
		require.NoError(t, err, id)
	}
	assert.Equal(t, []string{"C0REVIEW", "C0PAYMENTS"}, channels)
}
