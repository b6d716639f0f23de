package bench

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/codec"
)

// CodecCost is what the payload codec (AES-256-GCM) costs one draft: the payloads of its
// history (first draft and five send-checks), their size, and the time to encrypt and to
// decrypt all of them once. Clients and workers do each about once per payload (a worker
// replaying a history it no longer caches decrypts again).
type CodecCost struct {
	Payloads  int     `json:"payloads"`
	KB        float64 `json:"kb"`
	EncryptMs float64 `json:"encrypt_ms"`
	DecryptMs float64 `json:"decrypt_ms"`
}

// benchKeys is a fresh key ring for one run, so the bench encrypts as production does.
func benchKeys() (*codec.Keys, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	return codec.ParseKeys("bench:" + base64.StdEncoding.EncodeToString(raw))
}

// codecRounds repeats the timing: one history is well under a millisecond of work.
const codecRounds = 200

// codecCost weighs the codec's work on one workflow's history.
func codecCost(ctx context.Context, c client.Client, keys *codec.Keys, workflowID string) (*CodecCost, error) {
	var sealed []*commonpb.Payload
	iter := c.GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			return nil, err
		}
		codec.EachPayload(ev, func(p *commonpb.Payload) { sealed = append(sealed, p) })
	}
	cost := &CodecCost{Payloads: len(sealed)}
	cc := codec.Codec{Keys: keys}
	var plain []*commonpb.Payload
	t0 := time.Now()
	for range codecRounds {
		var err error
		if plain, err = cc.Decode(sealed); err != nil {
			return nil, err
		}
	}
	cost.DecryptMs = ms(time.Since(t0)) / codecRounds
	t0 = time.Now()
	for range codecRounds {
		if _, err := cc.Encode(plain); err != nil {
			return nil, err
		}
	}
	cost.EncryptMs = ms(time.Since(t0)) / codecRounds
	for _, p := range plain {
		cost.KB += float64(len(p.GetData())) / 1024
	}
	return cost, nil
}
