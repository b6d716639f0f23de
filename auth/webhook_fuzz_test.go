package auth

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"
)

// FuzzVerify feeds the verifier arbitrary headers and requests. It must never panic; it
// may accept only a header carrying the MAC of exactly this timestamp, method, path and
// body; and a request signed by Sign verifies, while the same signature on another path,
// method or body does not. `go test` runs the seed corpus; `go test -fuzz FuzzVerify
// -fuzztime 30s ./auth/` explores further.
func FuzzVerify(f *testing.F) {
	secret := []byte("fuzz-secret-fuzz-secret-fuzz-secret!")
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"text":"hello"}`)
	good := Sign(secret, "POST", "/v1/drafts/T-1/sent", body, now)
	f.Add("POST", "/v1/drafts/T-1/sent", body, good)
	f.Add("POST", "/v1/drafts/T-1/sent", body, strings.ToUpper(good))
	f.Add("POST", "/v1/drafts/T-10/sent", body, good)
	f.Add("GET", "/v1/drafts/T-1/sent", body, good)
	f.Add("POST", "/v1/drafts/T-1/sent", []byte{}, "t=1800000000,v2=,v2=zz,t=")
	f.Add("POST", "/", []byte("\x00\xff"), "t=-1,v1=00")
	f.Add("post", "/v1/drafts/T-1/sent", body, " t=1800000000 , v2="+good[len("t=1800000000,v2="):])
	f.Fuzz(func(t *testing.T, method, path string, body []byte, header string) {
		signed, err := Verify(secret, method, path, body, header, now)
		if err == nil {
			var ts string
			for part := range strings.SplitSeq(header, ",") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(part), "t="); ok {
					ts = v
				}
			}
			want := hex.EncodeToString(mac(secret, SignedString(ts, method, path, body)))
			if !strings.Contains(strings.ToLower(header), want) {
				t.Fatalf("accepted a header without the request's MAC: %q", header)
			}
			if signed != sha256.Sum256([]byte(SignedString(ts, method, path, body))) {
				t.Fatal("the replay key is not the hash of what was signed")
			}
		}
		sig := Sign(secret, method, path, body, now)
		if _, err := Verify(secret, method, path, body, sig, now); err != nil {
			t.Fatalf("own signature refused: %v", err)
		}
		if _, err := Verify(secret, method, path+"x", body, sig, now); err == nil {
			t.Fatal("a signature verified on another path")
		}
		if _, err := Verify(secret, method+"X", path, body, sig, now); err == nil {
			t.Fatal("a signature verified for another method")
		}
		if _, err := Verify(secret, method, path, append(bytes.Clone(body), 'x'), sig, now); err == nil {
			t.Fatal("a signature verified on another body")
		}
	})
}
