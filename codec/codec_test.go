package codec_test

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/converter"

	"github.com/supportdraft/supportdraft/codec"
)

func key(b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)) }

// ring parses a SUPPORTDRAFT_CODEC_KEYS value the test knows to be valid.
func ring(t *testing.T, spec string) *codec.Keys {
	t.Helper()
	keys, err := codec.ParseKeys(spec)
	require.NoError(t, err)
	return keys
}

func TestRoundTripHidesTheText(t *testing.T) {
	t.Parallel()
	keys := ring(t, "k1:"+key(1))
	dc := codec.DataConverter(keys)
	p, err := dc.ToPayload(map[string]string{"text": "Dear Jane Doe, jane@example.com"})
	require.NoError(t, err)
	assert.Equal(t, codec.Encoding, string(p.Metadata[converter.MetadataEncoding]))
	assert.Equal(t, "k1", string(p.Metadata[codec.MetadataKeyID]))
	assert.NotContains(t, string(p.Data), "Jane")
	var back map[string]string
	require.NoError(t, dc.FromPayload(p, &back))
	assert.Equal(t, "Dear Jane Doe, jane@example.com", back["text"])
}

// Rotation: a ring with a new active key still reads payloads of the old one; a ring
// without the old key refuses them with an error that names the key.
func TestRotation(t *testing.T) {
	t.Parallel()
	old := ring(t, "k1:"+key(1))
	p, err := codec.DataConverter(old).ToPayload("hello")
	require.NoError(t, err)

	rotated := ring(t, "k1:"+key(1)+",k2:"+key(2))
	assert.Equal(t, "k2", rotated.Active)
	var s string
	require.NoError(t, codec.DataConverter(rotated).FromPayload(p, &s))
	assert.Equal(t, "hello", s)
	np, err := codec.DataConverter(rotated).ToPayload("hello")
	require.NoError(t, err)
	assert.Equal(t, "k2", string(np.Metadata[codec.MetadataKeyID]))

	only2 := ring(t, "k2:"+key(2))
	err = codec.DataConverter(only2).FromPayload(p, &s)
	assert.ErrorContains(t, err, `key "k1" is not in SUPPORTDRAFT_CODEC_KEYS`)
}

func TestTamperingIsRefused(t *testing.T) {
	t.Parallel()
	keys := ring(t, "k1:"+key(1))
	p, err := codec.DataConverter(keys).ToPayload("hello")
	require.NoError(t, err)
	p.Data[len(p.Data)-1] ^= 1
	var s string
	assert.ErrorContains(t, codec.DataConverter(keys).FromPayload(p, &s), "decrypt payload")
}

func TestPlainPayloadsStillDecode(t *testing.T) {
	t.Parallel()
	plain, err := converter.GetDefaultDataConverter().ToPayload("before the codec")
	require.NoError(t, err)
	keys := ring(t, "k1:"+key(1))
	var s string
	require.NoError(t, codec.DataConverter(keys).FromPayload(plain, &s))
	assert.Equal(t, "before the codec", s)
}

func TestParseKeysErrors(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]string{
		"nokey":                          "use id:base64key",
		"k1:" + key(1)[:10]:              "want 32 bytes",
		"k1:" + key(1) + ",k1:" + key(2): "listed twice",
		"k1:" + strings.Repeat("!", 44):  "want 32 bytes",
	} {
		_, err := codec.ParseKeys(spec)
		assert.ErrorContains(t, err, want, spec)
	}
	k, err := codec.ParseKeys("")
	assert.NoError(t, err)
	assert.Nil(t, k)
}
