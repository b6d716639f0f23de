package retrieval_test

import (
	"context"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

func TestZZScratch(t *testing.T) {
	s := testenv.Store(t)
	ctx := context.Background()
	q := "refund annual plan"
	vec, _ := testenv.Embedder.Embed(ctx, []string{q})
	for _, loc := range []string{"en", "de"} {
		hits, err := s.Eligible(ctx, store.Query{At: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Account: policy.Account{Plan: "pro", Region: "eu", Locale: loc}, Text: q, Vector: vec[0], Embedder: testenv.Embedder.Name(), K: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			t.Logf("%s %s %s sim=%.6f tr=%.6f score=%.6f diff=%.6f", loc, h.ChunkID, h.Locale, h.Similarity, h.TextRank, h.Score, h.Score-h.Similarity-0.3*h.TextRank)
		}
	}
	var types string
	conn, _ := s.Pool().Acquire(ctx)
	defer conn.Release()
	sd, err := conn.Conn().Prepare(ctx, "x", `SELECT CASE WHEN 'en' = $1 THEN $2 ELSE 0 END`)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(sd.ParamOIDs, types)
	var out any
	err = conn.QueryRow(ctx, `SELECT CASE WHEN 'en' = $1 THEN $2 ELSE 0 END`, "en", 0.1).Scan(&out)
	t.Log(out, err)
}
