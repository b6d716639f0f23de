package auth

import (
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The documented test vector: fixed secret, request and time, and the hex an integrator's
// implementation must produce (computed independently with openssl, see the README).
func TestSignatureTestVector(t *testing.T) {
	secret := []byte("example-webhook-secret-0123456789abcdef")
	body := []byte(`{"text":"Refunds are available within 14 days."}`)
	at := time.Unix(1_800_000_000, 0)
	assert.Equal(t, "1800000000\nPOST\n/v1/drafts/T-1001/send-check\na468ebff15fda443c1960bca7998e75a1feef49d0c5a9b551b2e8e23bd23c9a0",
		SignedString("1800000000", "POST", "/v1/drafts/T-1001/send-check", body))
	const want = "t=1800000000,v2=834069478ddb584519edbcbc4567ab9cc8d3e3e61e0b6c451f88a4807ffd7047"
	assert.Equal(t, want, Sign(secret, "POST", "/v1/drafts/T-1001/send-check", body, at))
	_, err := Verify(secret, "POST", "/v1/drafts/T-1001/send-check", body, want, at)
	assert.NoError(t, err)
}

func TestSignAndVerify(t *testing.T) {
	secret := []byte("s3cret-s3cret-s3cret-s3cret-s3cret")
	body := []byte(`{"ticket_id":"T-1"}`)
	const method, path = "POST", "/v1/drafts/T-1/sent"
	now := time.Unix(1_800_000_000, 0)
	sig := Sign(secret, method, path, body, now)
	assert.Regexp(t, `^t=1800000000,v2=[0-9a-f]{64}$`, sig)

	signed, err := Verify(secret, method, path, body, sig, now.Add(4*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, Signed(sha256.Sum256([]byte(SignedString("1800000000", method, path, body)))), signed)

	upper, err := Verify(secret, method, path, body, "t=1800000000,v2="+strings.ToUpper(sig[len("t=1800000000,v2="):]), now)
	require.NoError(t, err, "hex is read in either letter case")
	assert.Equal(t, signed, upper, "what was signed does not depend on the header's letter case")

	rotated := Sign([]byte("old-secret-old-secret-old-secret"), method, path, body, now) + "," + strings.Split(sig, ",")[1]
	_, err = Verify(secret, method, path, body, rotated, now)
	assert.NoError(t, err, "one matching v2 among several is enough (secret rotation)")

	for name, tc := range map[string]struct {
		header       string
		method, path string
		body         []byte
		at           time.Time
		want         error
	}{
		"missing":         {"", method, path, body, now, ErrSignatureMissing},
		"tampered body":   {sig, method, path, []byte(`{"ticket_id":"T-2"}`), now, ErrSignatureBad},
		"other ticket":    {sig, method, "/v1/drafts/T-10/sent", body, now, ErrSignatureBad},
		"other route":     {sig, method, "/v1/drafts/T-1/send-check", body, now, ErrSignatureBad},
		"other method":    {sig, "PUT", path, body, now, ErrSignatureBad},
		"query added":     {sig, method, path + "?x=1", body, now, ErrSignatureBad},
		"wrong secret":    {Sign([]byte("x"), method, path, body, now), method, path, body, now, ErrSignatureBad},
		"too old":         {sig, method, path, body, now.Add(5*time.Minute + time.Second), ErrSignatureStale},
		"from the future": {sig, method, path, body, now.Add(-5*time.Minute - time.Second), ErrSignatureStale},
		"no v2":           {"t=1800000000", method, path, body, now, ErrSignatureBad},
		"old v1 scheme":   {"t=1800000000,v1=" + sig[len("t=1800000000,v2="):], method, path, body, now, ErrSignatureBad},
		"timestamp moved": {"t=1800000001," + sig[len("t=1800000000,"):], method, path, body, now, ErrSignatureBad},
		"timestamp twice": {"t=1800000000," + sig, method, path, body, now, ErrSignatureBad},
		"signed t":        {"t=+1800000000," + sig[len("t=1800000000,"):], method, path, body, now, ErrSignatureBad},
		"short hex":       {sig[:len(sig)-2], method, path, body, now, ErrSignatureBad},
		"huge header":     {sig + strings.Repeat(",v2=00", 200), method, path, body, now, ErrSignatureBad},
	} {
		_, err := Verify(secret, tc.method, tc.path, tc.body, tc.header, tc.at)
		assert.ErrorIs(t, err, tc.want, name)
	}
}

func TestSessions(t *testing.T) {
	s := Sessions{Key: []byte("key-key-key-key-key-key-key-key!")}
	now := time.Unix(1_800_000_000, 0)
	sess := s.New(7, "eu desk", Agent, nil, now)
	got, err := s.Decode(s.Encode(sess), now.Add(SessionTTL-time.Second))
	require.NoError(t, err)
	assert.Equal(t, sess, got)

	_, err = s.Decode(s.Encode(sess), now.Add(SessionTTL))
	assert.ErrorIs(t, err, ErrSessionExpired)

	forged := sess
	forged.Role = Admin
	_, err = s.Decode(Sessions{Key: []byte("another key")}.Encode(forged), now)
	assert.ErrorIs(t, err, ErrSessionInvalid, "a session signed with another key")
	payload, _, _ := strings.Cut(Sessions{}.Encode(forged), ".")
	_, sig, _ := strings.Cut(s.Encode(sess), ".")
	_, err = s.Decode(payload+"."+sig, now)
	assert.ErrorIs(t, err, ErrSessionInvalid, "a payload swapped under a valid signature")

	other := s.New(7, "eu desk", Agent, nil, now)
	assert.NotEqual(t, s.CSRF(sess), s.CSRF(other), "each session has its own CSRF token")
	assert.Equal(t, s.CSRF(sess), s.CSRF(got))
}

func TestSafeNext(t *testing.T) {
	for next, ok := range map[string]bool{
		"/app/tickets/T-1":      true,
		"/app/admin":            true,
		"":                      false,
		"https://evil.example/": false,
		"//evil.example/app/":   false,
		"/app//evil.example":    false,
		"/v1/drafts/T-1":        false,
		`/app/\evil.example`:    false,
		"javascript:alert(1)":   false,
	} {
		assert.Equal(t, ok, safeNext(next), next)
	}
}

func TestNewTokenIsStoredOnlyAsItsHash(t *testing.T) {
	a, ha := NewToken()
	b, _ := NewToken()
	assert.NotEqual(t, a, b)
	assert.Regexp(t, `^sdt_[A-Za-z0-9_-]{43}$`, a)
	assert.Equal(t, HashToken(a), ha)
	assert.NotContains(t, string(ha), a[4:])
}
