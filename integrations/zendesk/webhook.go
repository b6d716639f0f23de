package zendesk

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"time"
)

// The headers of a signed Zendesk webhook: the signature is
// base64(HMAC-SHA256(signing secret, timestamp + body)), the timestamp as sent.
const (
	SignatureHeader          = "X-Zendesk-Webhook-Signature"
	SignatureTimestampHeader = "X-Zendesk-Webhook-Signature-Timestamp"
)

// SignatureTolerance is how far a delivery's timestamp may be from the server's clock.
// Within it, a signature already accepted is refused as a replay (the caller remembers
// them for twice this long).
const SignatureTolerance = 5 * time.Minute

// Signature failures; the API counts each under its own result.
var (
	ErrSignatureMissing = errors.New("missing " + SignatureHeader + " or " + SignatureTimestampHeader + " header: set a signing secret on the Zendesk webhook")
	ErrSignatureBad     = errors.New(SignatureHeader + " does not match the body: check SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET against the webhook's signing secret")
	ErrSignatureStale   = errors.New(SignatureTimestampHeader + " is more than 5 minutes from the server's clock")
)

// Sign returns the signature Zendesk sends for body at timestamp ts.
func Sign(secret []byte, ts string, body []byte) string {
	return base64.StdEncoding.EncodeToString(mac(secret, ts, body))
}

// VerifySignature checks a delivery's signature and timestamp against body at now.
func VerifySignature(secret, body []byte, signature, ts string, now time.Time) error {
	if signature == "" || ts == "" {
		return ErrSignatureMissing
	}
	got, err := base64.StdEncoding.DecodeString(signature)
	if err != nil || !hmac.Equal(got, mac(secret, ts, body)) {
		return ErrSignatureBad
	}
	at, ok := signedAt(ts)
	if !ok {
		return ErrSignatureBad
	}
	if d := now.Sub(at); d > SignatureTolerance || d < -SignatureTolerance {
		return ErrSignatureStale
	}
	return nil
}

// signedAt reads the timestamp header: an RFC 3339 time, or Unix seconds. The
// verification page shows no sample value, so both readings are accepted; the signature
// covers the header's text either way.
func signedAt(ts string) (time.Time, bool) {
	if at, err := time.Parse(time.RFC3339, ts); err == nil {
		return at, true
	}
	if unix, err := strconv.ParseInt(ts, 10, 64); err == nil {
		return time.Unix(unix, 0), true
	}
	return time.Time{}, false
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write(body)
	return m.Sum(nil)
}
