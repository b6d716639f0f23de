package temporalclient_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/supportdraft/supportdraft/codec"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// A draft built and edited through clients with the codec leaves only encrypted payloads in
// its history: the customer's words and the agent's edit are nowhere in clear, and a
// reader without the key sees binary/encrypted payloads only.
func TestDraftHistoryHoldsOnlyEncryptedPayloads(t *testing.T) {
	t.Parallel()
	keys, err := codec.ParseKeys("test:" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
	require.NoError(t, err)
	opts := client.Options{HostPort: os.Getenv("TEMPORAL_ADDRESS"), Logger: testenv.QuietLogger()}
	require.NoError(t, temporalclient.Settings{Keys: keys}.Apply(&opts))
	c, err := client.Dial(opts)
	require.NoError(t, err)
	defer c.Close()
	plain := testenv.Temporal(t) // no codec: what the server, and anyone reading it, holds

	s := testenv.Store(t)
	tq := testenv.Unique("test-codec-")
	w := worker.New(c, tq, testenv.Activities(t, s, nil), true)
	require.NoError(t, w.Start())
	defer w.Stop()

	id := testenv.Unique("ENC-")
	const customer = "Hi, this is Jane Doe (jane.doe@example.com). Our annual Pro plan renewed five days ago. Can we still get a refund?"
	testenv.SaveTicket(t, s, testenv.Ticket(id, 1, "pro", "eu", time.Now().Add(-time.Hour), customer))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = workflows.Open(ctx, c, workflows.DraftWorkflowID(id), tq, &workflows.DraftInput{TicketID: id, Revision: 1, IdleTimeout: time.Hour})
	require.NoError(t, err)
	const edit = "Dear Jane Doe, your refund is on its way to jane.doe@example.com."
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.DraftWorkflowID(id), UpdateName: workflows.UpdateEdit,
		Args: []any{workflows.EditRequest{Text: edit}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	require.NoError(t, err)
	require.NoError(t, h.Get(ctx, nil))

	var payloads, encrypted int // besides search attributes (see eachPayload)
	iter := plain.GetWorkflowHistory(ctx, workflows.DraftWorkflowID(id), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		require.NoError(t, err)
		raw, err := proto.Marshal(ev)
		require.NoError(t, err)
		for _, secret := range []string{"Jane", "jane.doe@example.com", "refund is on its way"} {
			assert.NotContains(t, string(raw), secret, "event %d (%s) holds customer text in clear", ev.GetEventId(), ev.GetEventType())
		}
		eachPayload(ev.ProtoReflect(), func(p *commonpb.Payload) {
			payloads++
			if string(p.GetMetadata()["encoding"]) == codec.Encoding {
				encrypted++
			} else {
				t.Errorf("event %d (%s) holds a payload in clear: %s %q", ev.GetEventId(), ev.GetEventType(), p.GetMetadata(), p.GetData())
			}
		})
	}
	require.Positive(t, payloads)
	assert.Equal(t, payloads, encrypted, "every payload in the history is encrypted")
}

// eachPayload calls fn for every Payload message anywhere inside m, search attributes
// aside: the server indexes those, so no codec touches them, and the workflow sets only
// the SDK's own version markers there.
func eachPayload(m protoreflect.Message, fn func(*commonpb.Payload)) {
	switch v := m.Interface().(type) {
	case *commonpb.Payload:
		fn(v)
		return
	case *commonpb.SearchAttributes:
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool { eachPayload(mv.Message(), fn); return true })
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				eachPayload(v.List().Get(i).Message(), fn)
			}
		case fd.Message() != nil && !fd.IsList() && !fd.IsMap():
			eachPayload(v.Message(), fn)
		}
		return true
	})
}
