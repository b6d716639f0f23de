package auth

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSignAndVerify(t *testing.T) {
	secret := []byte("s3cret-s3cret-s3cret-s3cret-s3cret")
	body := []byte(`{"ticket_id":"T-1"}`)
	now := time.Unix(1_800_000_000, 0)
	sig := Sign(secret, body, now)
	assert.Regexp(t, `^t=1800000000,v1=[0-9a-f]{64}$`, sig)

	v1, err := Verify(secret, body, sig, now.Add(4*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, sig[len("t=1800000000,v1="):], v1)

	rotated := Sign([]byte("old-secret-old-secret-old-secret"), body, now) + ",v1=" + v1
	_, err = Verify(secret, body, rotated, now)
	assert.NoError(t, err, "one matching v1 among several is enough (secret rotation)")

	for name, tc := range map[string]struct {
		header string
		body   []byte
		at     time.Time
		want   error
	}{
		"missing":         {"", body, now, ErrSignatureMissing},
		"tampered body":   {sig, []byte(`{"ticket_id":"T-2"}`), now, ErrSignatureBad},
		"wrong secret":    {Sign([]byte("x"), body, now), body, now, ErrSignatureBad},
		"too old":         {sig, body, now.Add(5*time.Minute + time.Second), ErrSignatureStale},
		"from the future": {sig, body, now.Add(-5*time.Minute - time.Second), ErrSignatureStale},
		"no v1":           {"t=1800000000", body, now, ErrSignatureBad},
		"timestamp moved": {"t=1800000001," + sig[len("t=1800000000,"):], body, now, ErrSignatureBad},
	} {
		_, err := Verify(secret, tc.body, tc.header, tc.at)
		assert.ErrorIs(t, err, tc.want, name)
	}
}

func TestSessions(t *testing.T) {
	s := Sessions{Key: []byte("key-key-key-key-key-key-key-key!")}
	now := time.Unix(1_800_000_000, 0)
	sess := s.New(7, "eu desk", Agent, now)
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

	other := s.New(7, "eu desk", Agent, now)
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
