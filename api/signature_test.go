package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

// The probe's findings, on the real stack: one signed delivery resent with its hex in
// ever more upper case is accepted once; one signed "sent" for a ticket, posted to two
// other tickets, ends neither; a signature made for one method does not pass for another.
func TestSignedDeliveryIsBoundToItsRequestAndAcceptedOnce(t *testing.T) {
	t.Parallel()
	ts, _ := stackAPI(t)
	ids := []string{testenv.Unique("SIG-A-"), testenv.Unique("SIG-B-"), testenv.Unique("SIG-C-")}
	for _, id := range ids {
		var v workflows.DraftView
		require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, "Can I get a refund?"), &v))
	}
	helpdesk := func(method, path string, body []byte, sig string) (int, string) {
		return ts.do(t, request{method: method, path: path, body: body,
			header: map[string]string{"Authorization": "Bearer " + ts.creds.Tokens[auth.Helpdesk], auth.SignatureHeader: sig}})
	}

	check := []byte(`{"text":"You can get a refund within 14 days of purchase."}`)
	path := "/v1/drafts/" + ids[0] + "/send-check"
	sig := auth.Sign(ts.creds.Secret, http.MethodPost, path, check, time.Now())
	prefix, hexsig, _ := strings.Cut(sig, ",v2=")
	for n := 0; n <= 6; n++ {
		variant := prefix + ",v2=" + strings.ToUpper(hexsig[:n]) + hexsig[n:]
		code, msg := helpdesk(http.MethodPost, path, check, variant)
		if n == 0 {
			require.Equal(t, http.StatusOK, code, msg)
			continue
		}
		assert.Equal(t, http.StatusUnauthorized, code, "%d upper-case hex letters: %s", n, msg)
		assert.Contains(t, msg, "already used")
	}

	sent, err := json.Marshal(map[string]any{"text": "Refunds within 14 days.", "sent_at": time.Now().UTC(), "agent": "sam"})
	require.NoError(t, err)
	sentSig := auth.Sign(ts.creds.Secret, http.MethodPost, "/v1/drafts/"+ids[0]+"/sent", sent, time.Now())
	for _, other := range ids[1:] {
		code, msg := helpdesk(http.MethodPost, "/v1/drafts/"+other+"/sent", sent, sentSig)
		assert.Equal(t, http.StatusUnauthorized, code, "a signature for %s used on %s: %s", ids[0], other, msg)
		assert.Contains(t, msg, "does not match")
		var v workflows.DraftView
		require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+other, nil, &v))
		assert.NotEqual(t, drafts.StatusSent, v.Status, "%s was not sent", other)
	}

	putSig := auth.Sign(ts.creds.Secret, http.MethodPut, path, check, time.Now().Add(time.Second))
	code, msg := helpdesk(http.MethodPost, path, check, putSig)
	assert.Equal(t, http.StatusUnauthorized, code, "signed for PUT, sent as POST: %s", msg)
}
