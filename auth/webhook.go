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

// SignatureHeader carries a help-desk webhook's signature: "t=<unix seconds>,v1=<hex>",
// where v1 is HMAC-SHA256(secret, "<t>.<body>"). Several v1 entries may be sent while a
// secret is being rotated; one matching is enough.
const SignatureHeader = "X-Supportdraft-Signature"

// SignatureTolerance is how far a signature's timestamp may be from the server's clock.
// Older deliveries are refused, so a captured request cannot be replayed later; within
// the window the server remembers signatures it has accepted and refuses them twice.
const SignatureTolerance = 5 * time.Minute

// Signature failures, each counted under its own reason.
var (
	ErrSignatureMissing = errors.New("missing " + SignatureHeader + " header: sign the body as described in the README")
	ErrSignatureBad     = errors.New(SignatureHeader + " does not match the body: check the webhook secret")
	ErrSignatureStale   = errors.New(SignatureHeader + " timestamp is more than 5 minutes from the server's clock")
	ErrSignatureReplay  = errors.New(SignatureHeader + " was already used: every delivery needs a fresh timestamp and signature")
)

// Sign returns the header value for body sent at t.
func Sign(secret, body []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(signedPayload(secret, ts, body))
}

// Verify checks a header value against body at now. It returns the matching v1 value,
// which the caller records to refuse replays.
func Verify(secret, body []byte, header string, now time.Time) (string, error) {
	if header == "" {
		return "", ErrSignatureMissing
	}
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return "", fmt.Errorf("%w (want t=<unix seconds>,v1=<hex>)", ErrSignatureBad)
	}
	want := signedPayload(secret, ts, body)
	match := ""
	for _, s := range sigs {
		if got, err := hex.DecodeString(s); err == nil && hmac.Equal(got, want) {
			match = s
		}
	}
	if match == "" {
		return "", ErrSignatureBad
	}
	if d := now.Sub(time.Unix(unix, 0)); d > SignatureTolerance || d < -SignatureTolerance {
		return "", ErrSignatureStale
	}
	return match, nil
}

func signedPayload(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return m.Sum(nil)
}
