package temporalclient_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"google.golang.org/protobuf/proto"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/codec"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/workflows"
)

// A draft opened, edited and send-checked through the API, over clients with the codec,
// leaves only encrypted payloads in its history; and decrypted with the key, the history
// still holds none of the customer's words, the agent's edit or the text given to the
// send hook: updates and activities carry those by ID and hash.
func TestDraftHistoryHoldsNoTextEvenDecrypted(t *testing.T) {
	t.Parallel()
	keys := testenv.CodecKeys(t)
	c := dial(t, temporalclient.Settings{Keys: keys}) // closed after the worker stops
	plain := testenv.Temporal(t)                      // no codec: what the server, and anyone reading it, holds

	s := testenv.Store(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.StartWorker(t, st, "test-codec-", nil)
	ts, creds := testenv.ServeAPI(t, st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour}, nil))
	post := func(path string, body any) {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(creds.Request(t, http.MethodPost, ts.URL+path, auth.Agent, b))
		require.NoError(t, err)
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", path, raw)
	}

	id := testenv.Unique("ENC-")
	const customer = "Hi, this is Jane Doe (jane.doe@example.com). Our annual Pro plan renewed five days ago. Can we still get a refund?"
	post("/v1/drafts", testenv.Ticket(id, 1, "pro", "eu", time.Now().Add(-time.Hour), customer))
	const edit = "Dear Jane Doe, your refund is on its way to jane.doe@example.com."
	post("/v1/drafts/"+id+"/edit", map[string]string{"text": edit})
	const sendText = "Dear Jane Doe, all set: thanks for writing in. Call me on +44 20 7946 0958 with any question."
	post("/v1/drafts/"+id+"/send-check", map[string]string{"text": sendText})

	secrets := []string{"Jane", "jane.doe", "five days ago", "refund is on its way", "all set", "7946 0958"}
	var payloads, encrypted int // besides search attributes (see codec.EachPayload)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	iter := plain.GetWorkflowHistory(ctx, workflows.DraftWorkflowID(agent.Default, id), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		require.NoError(t, err)
		raw, err := proto.Marshal(ev)
		require.NoError(t, err)
		for _, secret := range secrets {
			assert.NotContains(t, string(raw), secret, "event %d (%s) holds customer text in clear", ev.GetEventId(), ev.GetEventType())
		}
		codec.EachPayload(ev, func(p *commonpb.Payload) {
			payloads++
			if string(p.GetMetadata()["encoding"]) != codec.Encoding {
				t.Errorf("event %d (%s) holds a payload in clear: %s %q", ev.GetEventId(), ev.GetEventType(), p.GetMetadata(), p.GetData())
				return
			}
			encrypted++
			decoded, err := codec.Codec{Keys: keys}.Decode([]*commonpb.Payload{p})
			require.NoError(t, err)
			for _, secret := range secrets {
				assert.NotContains(t, string(decoded[0].GetData()), secret, "event %d (%s) holds customer text once decrypted", ev.GetEventId(), ev.GetEventType())
			}
		})
	}
	require.Positive(t, payloads)
	assert.Equal(t, payloads, encrypted, "every payload in the history is encrypted")

	var edited, checked int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*) FILTER (WHERE kind = 'edit' AND text = $2),
		count(*) FILTER (WHERE kind = 'send_check' AND text = $3) FROM agent_texts WHERE ticket_id = $1`, id, edit, sendText).Scan(&edited, &checked))
	assert.Equal(t, []int{1, 1}, []int{edited, checked}, "the words are kept in Postgres, one row each")
	var linked bool
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT text_id IS NOT NULL FROM send_checks WHERE ticket_id = $1`, id).Scan(&linked))
	assert.True(t, linked, "the verdict names the text it was given")
}
