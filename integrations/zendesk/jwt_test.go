package zendesk_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/supportdraft/supportdraft/integrations/zendesk"
)

const (
	issuer   = "acme.zendesk.com"
	audience = "https://acme.zendesk.com/api/v2/apps/installations/360001.json"
)

// appToken signs claims as Zendesk signs a ZAF JWT for a signed URL (RS256).
func appToken(t *testing.T, key *rsa.PrivateKey, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func rsaKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A ZAF JWT opens the sidebar only when signed by the app's key, for this account and
// installation, and unexpired; each refusal names what was wrong.
func TestAppVerifier(t *testing.T) {
	t.Parallel()
	key, other := rsaKey(t), rsaKey(t)
	now := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	v := &zendesk.AppVerifier{Key: &key.PublicKey, Issuer: issuer, Audience: audience, Now: func() time.Time { return now }}
	claims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"iss": issuer, "aud": audience, "sub": "235323", "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix()}
		if change != nil {
			change(c)
		}
		return c
	}
	hs256, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims(nil)).SignedString(x509.MarshalPKCS1PublicKey(&key.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	unsigned, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, token, want string
	}{
		{"good", appToken(t, key, claims(nil)), ""},
		{"wrong audience", appToken(t, key, claims(func(c jwt.MapClaims) { c["aud"] = "https://acme.zendesk.com/api/v2/apps/installations/999.json" })), `"aud"`},
		{"wrong issuer", appToken(t, key, claims(func(c jwt.MapClaims) { c["iss"] = "evil.zendesk.com" })), `"iss"`},
		{"expired", appToken(t, key, claims(func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Minute).Unix() })), "expired"},
		{"no expiry", appToken(t, key, claims(func(c jwt.MapClaims) { delete(c, "exp") })), `"exp"`},
		{"wrong key", appToken(t, other, claims(nil)), "public key"},
		{"HS256 with the public key as secret", hs256, "RS256"},
		{"alg none", unsigned, "RS256"},
		{"not a JWT", "hello", "not a JWT"},
		{"missing", "", `"token"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agent, err := v.Verify(tc.token)
			if tc.want == "" {
				if err != nil || agent.UserID != "235323" {
					t.Fatalf("Verify = %+v, %v; want agent 235323", agent, err)
				}
				return
			}
			if !errors.Is(err, zendesk.ErrAppToken) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Verify error = %v; want ErrAppToken naming %s", err, tc.want)
			}
		})
	}
}

func TestLoadPublicKey(t *testing.T) {
	t.Parallel()
	key := rsaKey(t)
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "app.pem")
	bad := filepath.Join(dir, "bad.pem")
	if err := os.WriteFile(good, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := zendesk.LoadPublicKey(good)
	if err != nil || !got.Equal(&key.PublicKey) {
		t.Fatalf("LoadPublicKey(good) = %v, %v", got, err)
	}
	if _, err := zendesk.LoadPublicKey(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("LoadPublicKey(bad) error = %v; want one naming the file", err)
	}
}
