// Package dataset builds and checks the labelled replay set in evals/: a versioned
// billing-policy corpus (evals/corpus, in the policy corpus format) and tickets.jsonl, billing
// tickets with expect labels that say, for the ticket's own updated_at, plan and region,
// which policy versions answer it and which facts a good reply states or must not state.
//
// The tickets are generated, deterministically from a seed, by cmd/gen:
//
//	go run ./evals/dataset/cmd/gen            # from the repository root
//
// Labels are not written by hand: the generator resolves every citation against the
// corpus with policy.Version.EligibleAt at the ticket's instant, and the tests in this
// package verify the written file against the corpus again, independently.
package dataset

//go:generate go run ./cmd/gen -corpus ../corpus -out ../tickets.jsonl
