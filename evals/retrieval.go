package evals

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/ticket"
)

// Retrieval measures retrieval apart from drafting, at doc_id level, over the answerable
// tickets whose label names the documents that answer them (expect.cite): where in the
// ranked list of distinct documents the first of those comes. A ticket's label may list
// several documents; any one of them is a hit.
type Retrieval struct {
	// System is the retrieval drafts use: both arms fused, one query per question and
	// customer message (retrieval.TicketQueries), eligible chunks only.
	System RetrievalFigures `json:"system"`
	// SimilarityOnly is the baseline arm's retrieval: the ticket's whole text by
	// similarity alone, no metadata filter (a superseded version of a labelled document
	// counts as its document).
	SimilarityOnly RetrievalFigures `json:"similarity_only"`
	// BM25 is the classic baseline: every eligible document whole, lower-cased and split
	// on whitespace, ranked by BM25 (k1 1.2, b 0.75) for the ticket's whole text as written
	// (classicQuery).
	BM25 RetrievalFigures `json:"bm25"`
	// DraftCitationHit is the share of those tickets whose draft cites at least one of
	// their documents (citation_recall, at doc_id level).
	DraftCitationHit float64 `json:"draft_citation_hit"`
	// Tickets are each measured ticket's ranks, for reading the misses.
	Tickets []RetrievalCase `json:"tickets"`
}

// RetrievalCase is one ticket's first-gold rank in each ranking (0: not in the first 10
// distinct documents), with its labelled documents and the system's first five.
type RetrievalCase struct {
	TicketID       string   `json:"ticket_id"`
	Gold           []string `json:"gold"`
	System         int      `json:"system"`
	SimilarityOnly int      `json:"similarity_only"`
	BM25           int      `json:"bm25"`
	SystemTop      []string `json:"system_top"`
}

// RetrievalFigures are one ranking's hit@k (a labelled document among the first k distinct
// documents) and mean reciprocal rank over the first 10, over Tickets tickets.
type RetrievalFigures struct {
	Tickets int     `json:"tickets"`
	HitAt1  float64 `json:"hit_at_1"`
	HitAt5  float64 `json:"hit_at_5"`
	HitAt10 float64 `json:"hit_at_10"`
	MRR     float64 `json:"mrr"`
}

// retrievalDepth is how many chunks each measured retrieval returns: enough for ten
// distinct documents when the eligible set has them (store.MaxPerDoc chunks a document).
const retrievalDepth = 30

// measureRetrieval ranks documents for every labelled ticket three ways and scores each
// ranking against expect.cite; cases are the system's drafts, for their citation hit.
func measureRetrieval(ctx context.Context, system, similarity *retrieval.Retriever, versions []*policy.Version, tickets []*dataset.Labelled, cases []Case) (Retrieval, error) {
	var sys, sim, bm []int
	var cited, labelled int
	var perTicket []RetrievalCase
	for i, t := range tickets {
		gold := goldDocs(t.Expect)
		if len(gold) == 0 {
			continue
		}
		account := t.Account.Eligibility()
		queries := retrieval.TicketQueries(&t.Ticket)
		hits, err := system.Search(ctx, t.UpdatedAt, account, queries, retrievalDepth)
		if err != nil {
			return Retrieval{}, fmt.Errorf("retrieve for %s: %w", t.TicketID, err)
		}
		var docs []string
		for _, h := range hits {
			docs = append(docs, h.DocID)
		}
		sys = append(sys, firstGold(docs, gold))
		top := distinct(docs, 5)
		hits, err = similarity.Search(ctx, t.UpdatedAt, account, queries, retrievalDepth)
		if err != nil {
			return Retrieval{}, fmt.Errorf("similarity-only retrieval for %s: %w", t.TicketID, err)
		}
		docs = docs[:0]
		for _, h := range hits {
			docs = append(docs, h.DocID)
		}
		sim = append(sim, firstGold(docs, gold))
		bm = append(bm, firstGold(bm25Docs(versions, t, classicQuery(&t.Ticket)), gold))
		perTicket = append(perTicket, RetrievalCase{TicketID: t.TicketID, Gold: gold, System: sys[len(sys)-1],
			SimilarityOnly: sim[len(sim)-1], BM25: bm[len(bm)-1], SystemTop: top})
		labelled++
		if i < len(cases) && slices.ContainsFunc(cases[i].Cited, func(ref string) bool { return slices.Contains(gold, policy.DocOf(ref)) }) {
			cited++
		}
	}
	return Retrieval{System: figures(sys), SimilarityOnly: figures(sim), BM25: figures(bm), DraftCitationHit: ratio(cited, labelled), Tickets: perTicket}, nil
}

// goldDocs are the doc_ids of an answerable label's expect.cite.
func goldDocs(e *dataset.Expect) []string {
	if e == nil || !e.Answerable {
		return nil
	}
	var out []string
	for _, ref := range e.Cite {
		if d := policy.DocOf(ref); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// firstGold is the 1-based rank of the first gold document among the distinct documents
// of ranked, 0 when none is.
func firstGold(ranked, gold []string) int {
	var seen []string
	for _, d := range ranked {
		if slices.Contains(seen, d) {
			continue
		}
		seen = append(seen, d)
		if slices.Contains(gold, d) {
			return len(seen)
		}
	}
	return 0
}

// distinct is the first n distinct documents of ranked.
func distinct(ranked []string, n int) []string {
	var out []string
	for _, d := range ranked {
		if !slices.Contains(out, d) && len(out) < n {
			out = append(out, d)
		}
	}
	return out
}

// figures turns first-gold ranks into hit@1/5/10 and MRR@10.
func figures(ranks []int) RetrievalFigures {
	f := RetrievalFigures{Tickets: len(ranks)}
	if len(ranks) == 0 {
		return f
	}
	for _, r := range ranks {
		if r == 0 || r > 10 {
			continue
		}
		f.MRR += 1 / float64(r)
		f.HitAt10++
		if r <= 5 {
			f.HitAt5++
		}
		if r == 1 {
			f.HitAt1++
		}
	}
	n := float64(len(ranks))
	f.HitAt1, f.HitAt5, f.HitAt10, f.MRR = f.HitAt1/n, f.HitAt5/n, f.HitAt10/n, f.MRR/n
	return f
}

// classicQuery is what a plain pipeline searches for a ticket: its subject and customer
// messages as written, quoted mail and signatures included.
func classicQuery(t *ticket.Ticket) string {
	parts := []string{t.Subject}
	for _, m := range t.Messages {
		if m.Author == "customer" {
			parts = append(parts, m.Body)
		}
	}
	return strings.Join(parts, "\n")
}

// bm25Docs ranks the documents eligible for t at its instant by classic BM25 of query over
// each whole version (title and body), lower-cased and split on whitespace, with the
// statistics of those documents only.
func bm25Docs(versions []*policy.Version, t *dataset.Labelled, query string) []string {
	const k1, b = 1.2, 0.75
	type doc struct {
		id string
		tf map[string]int
		n  int
	}
	var docs []doc
	df := map[string]int{}
	total := 0
	for _, v := range versions {
		if !v.EligibleAt(t.UpdatedAt, t.Account.Plan, t.Account.Region) {
			continue
		}
		d := doc{id: v.DocID, tf: map[string]int{}}
		for _, w := range strings.Fields(strings.ToLower(v.Title + "\n" + v.Body)) {
			if d.tf[w] == 0 {
				df[w]++
			}
			d.tf[w]++
			d.n++
		}
		total += d.n
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil
	}
	avg := float64(total) / float64(len(docs))
	terms := strings.Fields(strings.ToLower(query))
	score := make(map[string]float64, len(docs))
	for _, d := range docs {
		for _, w := range terms {
			tf := float64(d.tf[w])
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (float64(len(docs))-float64(df[w])+0.5)/(float64(df[w])+0.5))
			score[d.id] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(d.n)/avg))
		}
	}
	slices.SortStableFunc(docs, func(x, y doc) int {
		return cmp.Or(cmp.Compare(score[y.id], score[x.id]), strings.Compare(x.id, y.id))
	})
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.id
	}
	return out
}

// WriteTable prints retrieval's figures, the system beside both baselines.
func (r Retrieval) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "retrieval (doc level, %d labelled tickets)\tsystem\tsimilarity-only\tbm25\n", r.System.Tickets)
	rows := []struct {
		name string
		get  func(f RetrievalFigures) float64
	}{
		{"hit@1", func(f RetrievalFigures) float64 { return f.HitAt1 }},
		{"hit@5", func(f RetrievalFigures) float64 { return f.HitAt5 }},
		{"hit@10", func(f RetrievalFigures) float64 { return f.HitAt10 }},
		{"mrr@10", func(f RetrievalFigures) float64 { return f.MRR }},
	}
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\n", row.name, row.get(r.System), row.get(r.SimilarityOnly), row.get(r.BM25))
	}
	fmt.Fprintf(tw, "draft cites a labelled document\t%.3f\t\t\n", r.DraftCitationHit)
	return tw.Flush()
}
