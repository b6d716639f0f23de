package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// SessionCookie is the cookie that carries a browser session.
const SessionCookie = "sd_session"

// SessionTTL is how long a session lasts. Short, because the help desk can always mint a
// new one from its token; long enough for a shift's worth of tickets in one sidebar.
const SessionTTL = time.Hour

// Session is what a signed session cookie says: which token it was exchanged from (so
// revoking the token ends it), the role, the agents it acts for (the token's at sign-in),
// when it ends, and a nonce its CSRF token derives from.
type Session struct {
	TokenID int64    `json:"tid"`
	Name    string   `json:"name"`
	Role    Role     `json:"role"`
	Agents  []string `json:"agents,omitempty"`
	Expires int64    `json:"exp"` // Unix seconds
	Nonce   string   `json:"n"`
}

// Session errors; both answer 401.
var (
	ErrSessionInvalid = errors.New("session cookie is not one this server signed")
	ErrSessionExpired = errors.New("session expired: open a new sign-in link (each works once), or sign in at /app/login")
)

// Sessions signs and reads session cookies with one HMAC key.
type Sessions struct {
	Key []byte
}

// New starts a session for a token acting for agents, valid from now for SessionTTL.
func (s Sessions) New(tokenID int64, name string, role Role, agents []string, now time.Time) Session {
	n := make([]byte, 16)
	_, _ = rand.Read(n)
	return Session{TokenID: tokenID, Name: name, Role: role, Agents: agents, Expires: now.Add(SessionTTL).Unix(),
		Nonce: base64.RawURLEncoding.EncodeToString(n)}
}

// Encode is the cookie value: the session as JSON, then its HMAC-SHA256, both base64url.
func (s Sessions) Encode(sess Session) string {
	payload, _ := json.Marshal(sess)
	p := base64.RawURLEncoding.EncodeToString(payload)
	return p + "." + base64.RawURLEncoding.EncodeToString(s.mac("session:"+p))
}

// Decode checks a cookie value's signature and expiry.
func (s Sessions) Decode(value string, now time.Time) (Session, error) {
	p, sig, ok := strings.Cut(value, ".")
	if !ok {
		return Session{}, ErrSessionInvalid
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac("session:"+p)) {
		return Session{}, ErrSessionInvalid
	}
	payload, err := base64.RawURLEncoding.DecodeString(p)
	var sess Session
	if err != nil || json.Unmarshal(payload, &sess) != nil {
		return Session{}, ErrSessionInvalid
	}
	if now.Unix() >= sess.Expires {
		return Session{}, ErrSessionExpired
	}
	return sess, nil
}

// CSRF is the session's anti-forgery token: every form and every unsafe request made with
// the session cookie must carry it (form field "csrf" or header X-CSRF-Token). A page
// from another site can send the cookie but cannot read this value.
func (s Sessions) CSRF(sess Session) string {
	return base64.RawURLEncoding.EncodeToString(s.mac("csrf:" + sess.Nonce))
}

func (s Sessions) mac(msg string) []byte {
	m := hmac.New(sha256.New, s.Key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}
