package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries a help-desk webhook's signature: "t=<unix seconds>,v2=<hex>",
// where v2 is HMAC-SHA256(secret, SignedString(t, method, path, body)). Several v2
// entries may be sent while a secret is being rotated; one matching is enough.
const SignatureHeader = "X-Supportdraft-Signature"

// SignatureTolerance is how far a signature's timestamp may be from the server's clock.
// Older deliveries are refused, so a captured request cannot be replayed later; within
// the window the server remembers what it has accepted and refuses it twice.
const SignatureTolerance = 5 * time.Minute

// maxSignatureHeader bounds the header we parse: a timestamp and a few signatures.
const maxSignatureHeader = 1024

// Signature failures, each counted under its own reason.
var (
	ErrSignatureMissing = errors.New("missing " + SignatureHeader + " header: sign the request as described in the README")
	ErrSignatureBad     = errors.New(SignatureHeader + " does not match this request: sign t, method, path and the body's SHA-256 with the webhook secret")
	ErrSignatureStale   = errors.New(SignatureHeader + " timestamp is more than 5 minutes from the server's clock")
	ErrSignatureReplay  = errors.New(SignatureHeader + " was already used: every delivery needs a fresh timestamp and signature")
)

// Signed is what a verified signature covered: the SHA-256 of its signed string. Two
// deliveries share it only if they carry the same timestamp, method, path and body, so
// it is the replay cache's key whatever the header looked like (letter case, order of
// entries, secret used).
type Signed [sha256.Size]byte

// String is the hex form the replay cache stores.
func (s Signed) String() string { return hex.EncodeToString(s[:]) }

// SignedString is the text a signature is the HMAC of: the timestamp as sent, the method
// in upper case, the path (with its query, if any) exactly as on the request line, and
// the hex SHA-256 of the raw body, one per line. Binding method and path means a signed
// call for one ticket cannot be sent to another ticket or another route.
func SignedString(ts, method, path string, body []byte) string {
	sum := sha256.Sum256(body)
	return ts + "\n" + strings.ToUpper(method) + "\n" + path + "\n" + hex.EncodeToString(sum[:])
}

// Sign returns the header value for a request (method, path and body) sent at t.
func Sign(secret []byte, method, path string, body []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v2=" + hex.EncodeToString(mac(secret, SignedString(ts, method, path, body)))
}

// Verify checks a header value against a request at now. The hex of each v2 entry is
// decoded (either letter case) and compared in constant time with the expected MAC. It
// returns what the signature covered, which the caller records to refuse replays.
func Verify(secret []byte, method, path string, body []byte, header string, now time.Time) (Signed, error) {
	if header == "" {
		return Signed{}, ErrSignatureMissing
	}
	if len(header) > maxSignatureHeader {
		return Signed{}, fmt.Errorf("%w (header longer than %d bytes)", ErrSignatureBad, maxSignatureHeader)
	}
	var ts string
	var sigs [][]byte
	oldScheme := false
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			if ts != "" {
				return Signed{}, fmt.Errorf("%w (t= given twice)", ErrSignatureBad)
			}
			ts = v
		case "v2":
			if got, err := hex.DecodeString(v); err == nil && len(got) == sha256.Size {
				sigs = append(sigs, got)
			}
		case "v1":
			oldScheme = true
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	switch {
	case err != nil || ts[0] == '+' || ts[0] == '-':
		return Signed{}, fmt.Errorf("%w (want t=<unix seconds>,v2=<hex>)", ErrSignatureBad)
	case len(sigs) == 0 && oldScheme:
		return Signed{}, fmt.Errorf("%w (v1 signatures covered the body only and are no longer accepted: send v2)", ErrSignatureBad)
	case len(sigs) == 0:
		return Signed{}, fmt.Errorf("%w (want t=<unix seconds>,v2=<64 hex digits>)", ErrSignatureBad)
	}
	signed := SignedString(ts, method, path, body)
	want := mac(secret, signed)
	match := false
	for _, got := range sigs {
		match = hmac.Equal(got, want) || match
	}
	if !match {
		return Signed{}, ErrSignatureBad
	}
	if d := now.Sub(time.Unix(unix, 0)); d > SignatureTolerance || d < -SignatureTolerance {
		return Signed{}, ErrSignatureStale
	}
	return sha256.Sum256([]byte(signed)), nil
}

func mac(secret []byte, signed string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(signed))
	return m.Sum(nil)
}
