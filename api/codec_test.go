package api_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/codec"
	"github.com/supportdraft/supportdraft/internal/testenv"
)

// The Web UI's codec endpoint decodes for reviewers and admins only.
func TestCodecEndpointDecodesForReviewersOnly(t *testing.T) {
	t.Parallel()
	keys := testenv.CodecKeys(t)
	ts, _ := offlineAPI(t, api.Config{Codec: codec.Codec{Keys: keys}, TemporalUI: "http://127.0.0.1:8233"})
	p, err := codec.DataConverter(keys).ToPayload("Jane's refund")
	require.NoError(t, err)
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: []*commonpb.Payload{p}})
	require.NoError(t, err)

	decode := func(role auth.Role) (int, string) {
		req, _ := http.NewRequest("POST", ts.URL+"/codec/decode", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[role])
		return roundTrip(t, req)
	}
	code, _ := decode(auth.Agent)
	assert.Equal(t, http.StatusForbidden, code)
	code, out := decode(auth.Reviewer)
	require.Equal(t, http.StatusOK, code, out)
	var decoded commonpb.Payloads
	require.NoError(t, protojson.Unmarshal([]byte(out), &decoded))
	assert.Equal(t, `"Jane's refund"`, string(decoded.Payloads[0].GetData()))
}
