package local

import (
	"github.com/supportdraft/supportdraft/policy"
)

// A question near a knowledge base but outside it shares the knowledge base's vocabulary
// (the product, the area), so several documents match parts of it about as well and no
// one stands out; the readings of the evidence need not agree on which comes first. The
// signals here read whether one document stands out, and by every reading.

// armsAgree is SignalAgree: whether the document retrieval's fused order puts first is
// also the one the vector similarity (Evidence.Score) puts first, and the one the
// drafter's own ranking (ranked) puts first; 1 when both agree, 0.5 when one does. A
// question the knowledge base answers tends to find the same document by every reading.
func armsAgree(evidence []policy.Evidence, ranked []rankedChunk) float64 {
	if len(evidence) == 0 || len(ranked) == 0 {
		return 0
	}
	vector := evidence[0]
	for _, ev := range evidence[1:] {
		if ev.Score > vector.Score {
			vector = ev
		}
	}
	agree := 0.0
	if vector.DocID == evidence[0].DocID {
		agree += 0.5
	}
	if ranked[0].ev.DocID == evidence[0].DocID {
		agree += 0.5
	}
	return agree
}

// relevanceStandout is SignalStandout: how far the best section's relevance stands above
// the mean relevance of the other documents' sections the drafter ranked, as a share of
// it. The ranked evidence is the background the best match is read against: a question
// the knowledge base answers finds one document clearly closer than the rest, one near
// it but outside finds several about as close. Unlike margin (the next section, often
// of the same document), it reads every other document.
func relevanceStandout(ranked []rankedChunk) float64 {
	if len(ranked) == 0 {
		return 0
	}
	top := ranked[0]
	for _, r := range ranked[1:] {
		if r.relevance > top.relevance {
			top = r
		}
	}
	sum, n := 0.0, 0
	for _, r := range ranked {
		if r.ev.DocID != top.ev.DocID {
			sum += r.relevance
			n++
		}
	}
	if top.relevance <= 0 {
		return 0
	}
	if n == 0 {
		return 1
	}
	return clamp01((top.relevance - sum/float64(n)) / top.relevance)
}
