package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// tokenPrefix marks supportdraft tokens, so a leaked one is recognisable in logs and by
// secret scanners.
const tokenPrefix = "sdt_"

// NewToken returns a fresh token (32 random bytes) and the hash to store. The token is
// shown once; only the hash is kept.
func NewToken() (token string, hash []byte) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	token = tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken is the stored form of a token. A plain SHA-256 is enough: tokens carry 256
// bits of randomness, so there is nothing for a slow hash to protect.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
