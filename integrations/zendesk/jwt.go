package zendesk

import (
	"crypto/rsa"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// AppVerifier checks the ZAF JWT Zendesk posts (form field "token") when it first loads a
// signed URL: RS256 with the app's public key, the account as issuer, the app
// installation as audience, and an expiry. Only then does the sidebar open a session.
type AppVerifier struct {
	Key      *rsa.PublicKey
	Issuer   string // the account's host, such as "acme.zendesk.com"
	Audience string // the installation, such as "https://acme.zendesk.com/api/v2/apps/installations/123.json"
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Agent is who the app was opened for, as the verified token says.
type Agent struct {
	// UserID is the token's subject, the Zendesk user the app runs for ("" when the
	// token names none).
	UserID string
}

// ErrAppToken wraps every refusal of a ZAF JWT; the message names what was wrong.
var ErrAppToken = errors.New("zendesk app token refused")

var errNotRS256 = errors.New("not RS256")

// Verify checks a ZAF JWT and returns the agent it names.
func (v *AppVerifier) Verify(token string) (Agent, error) {
	if token == "" {
		return Agent{}, fmt.Errorf(`%w: form field "token" is missing: enable signed URLs (signedUrls: true) in the app's manifest`, ErrAppToken)
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	p := jwt.NewParser(jwt.WithIssuer(v.Issuer), jwt.WithAudience(v.Audience),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(now), jwt.WithLeeway(30*time.Second))
	var claims jwt.RegisteredClaims
	key := func(t *jwt.Token) (any, error) {
		// Only RS256: a token claiming HS256 (the public key used as an HMAC secret) or
		// "none" is refused before any signature is checked.
		if t.Method != jwt.SigningMethodRS256 {
			return nil, errNotRS256
		}
		return v.Key, nil
	}
	if _, err := p.ParseWithClaims(token, &claims, key); err != nil {
		return Agent{}, fmt.Errorf("%w: %s", ErrAppToken, reason(err))
	}
	return Agent{UserID: claims.Subject}, nil
}

// reason names what failed in words an installer can act on, without echoing the token.
func reason(err error) string {
	switch {
	case errors.Is(err, errNotRS256):
		return "it is not signed with RS256, the only algorithm Zendesk uses for app tokens"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "it has expired: reload the ticket"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return `claim "iss" is not this Zendesk account (SUPPORTDRAFT_ZENDESK_URL)`
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return `claim "aud" is not this app installation (SUPPORTDRAFT_ZENDESK_APP_AUD)`
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return `claim "exp" is missing`
	case errors.Is(err, jwt.ErrTokenSignatureInvalid), errors.Is(err, jwt.ErrTokenUnverifiable):
		return "its signature does not match the app's public key (SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE)"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "it is not a JWT"
	case errors.Is(err, jwt.ErrTokenNotValidYet), errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return "it is not valid yet: check the server's clock"
	}
	return "it is not a valid RS256 token"
}

// LoadPublicKey reads the app's RSA public key from a PEM file (Zendesk shows it for the
// installed app; see the README).
func LoadPublicKey(path string) (*rsa.PublicKey, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read app public key: %w", err)
	}
	key, err := jwt.ParseRSAPublicKeyFromPEM(pem)
	if err != nil {
		return nil, fmt.Errorf("app public key %s: %w", path, err)
	}
	return key, nil
}
