package testenv

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/supportdraft/supportdraft/codec"
)

// CodecKeys is a ring of one fixed key, for tests of what the payload codec hides, as a
// deployment's SUPPORTDRAFT_CODEC_KEYS gives it one.
func CodecKeys(t testing.TB) *codec.Keys {
	t.Helper()
	keys, err := codec.ParseKeys("test:" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
	if err != nil {
		t.Fatalf("parse test codec keys: %v", err)
	}
	return keys
}
