// Package codec encrypts every Temporal payload supportdraft writes (workflow inputs,
// activity arguments and results, update arguments, markers) with AES-256-GCM before it
// leaves the process, so the Temporal server and its history hold ciphertext only. The key
// ID travels in the payload's metadata: rotating means adding a new key and making it the
// active one, while older payloads stay readable with the keys kept beside it.
package codec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// Metadata keys and the encoding name of an encrypted payload.
const (
	// Encoding marks an encrypted payload (metadata "encoding").
	Encoding = "binary/encrypted"
	// MetadataKeyID names the key that encrypted the payload.
	MetadataKeyID = "encryption-key-id"
)

// Keys is a key ring: every key that may have encrypted a stored payload, by ID, and the
// one that encrypts new payloads.
type Keys struct {
	Active string
	byID   map[string]cipher.AEAD
}

// ParseKeys reads a key ring from "id:base64key,id:base64key" (SUPPORTDRAFT_CODEC_KEYS):
// each key 32 bytes, standard base64; the last one listed is active. An empty spec is no
// ring (nil, nil): payloads then stay plain.
func ParseKeys(spec string) (*Keys, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	k := &Keys{byID: map[string]cipher.AEAD{}}
	for i, entry := range strings.Split(spec, ",") {
		id, b64, ok := strings.Cut(strings.TrimSpace(entry), ":")
		if !ok || id == "" {
			return nil, fmt.Errorf("SUPPORTDRAFT_CODEC_KEYS entry %d: use id:base64key", i+1)
		}
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil || len(raw) != 32 {
			return nil, fmt.Errorf("SUPPORTDRAFT_CODEC_KEYS key %q: want 32 bytes in standard base64 (openssl rand -base64 32)", id)
		}
		if _, dup := k.byID[id]; dup {
			return nil, fmt.Errorf("SUPPORTDRAFT_CODEC_KEYS key %q is listed twice", id)
		}
		block, err := aes.NewCipher(raw)
		if err != nil {
			return nil, fmt.Errorf("SUPPORTDRAFT_CODEC_KEYS key %q: %w", id, err)
		}
		if k.byID[id], err = cipher.NewGCM(block); err != nil {
			return nil, fmt.Errorf("SUPPORTDRAFT_CODEC_KEYS key %q: %w", id, err)
		}
		k.Active = id
	}
	return k, nil
}

// Codec is the converter.PayloadCodec over a key ring.
type Codec struct{ Keys *Keys }

// Encode encrypts each payload whole (metadata and data, as protobuf) with the active key;
// the nonce is random and prefixed to the ciphertext.
func (c Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	aead := c.Keys.byID[c.Keys.Active]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return payloads, fmt.Errorf("encrypt payload: %w", err)
		}
		nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
		if _, err := rand.Read(nonce); err != nil {
			return payloads, fmt.Errorf("encrypt payload: %w", err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{converter.MetadataEncoding: []byte(Encoding), MetadataKeyID: []byte(c.Keys.Active)},
			Data:     aead.Seal(nonce, nonce, plain, []byte(c.Keys.Active)),
		}
	}
	return out, nil
}

// Decode decrypts encrypted payloads with the key their metadata names; plain payloads
// (written before the codec was on) pass through, so existing histories still replay.
func (c Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != Encoding {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.Keys.byID[id]
		if !ok {
			return payloads, fmt.Errorf("decrypt payload: key %q is not in SUPPORTDRAFT_CODEC_KEYS (keep retired keys listed until their histories are gone)", id)
		}
		data := p.GetData()
		if len(data) < aead.NonceSize() {
			return payloads, fmt.Errorf("decrypt payload with key %q: too short", id)
		}
		plain, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], []byte(id))
		if err != nil {
			return payloads, fmt.Errorf("decrypt payload with key %q: %w", id, err)
		}
		out[i] = &commonpb.Payload{}
		if err := proto.Unmarshal(plain, out[i]); err != nil {
			return payloads, fmt.Errorf("decrypt payload with key %q: %w", id, err)
		}
	}
	return out, nil
}

// DataConverter is the default converter wrapped in the codec; with no key ring it is the
// default converter. Every client and worker takes it, so nothing is written in clear.
func DataConverter(k *Keys) converter.DataConverter {
	if k == nil {
		return converter.GetDefaultDataConverter()
	}
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), Codec{Keys: k})
}

// FailureConverter makes failure messages and stack traces encoded payloads too, so an
// error that quotes customer text does not sit in history in clear.
func FailureConverter(k *Keys) converter.FailureConverter {
	if k == nil {
		return nil
	}
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter: DataConverter(k), EncodeCommonAttributes: true})
}
