// Command gen regenerates evals/tickets.jsonl, the labelled replay set, from the corpus in
// evals/corpus. The output depends only on the corpus, the seed and the ticket count.
//
//	go run ./evals/dataset/cmd/gen [-corpus evals/corpus] [-out evals/tickets.jsonl] [-seed N] [-n N]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/supportdraft/supportdraft/evals/dataset"
)

func main() {
	corpus := flag.String("corpus", "evals/corpus", "policy corpus directory")
	out := flag.String("out", "evals/tickets.jsonl", "where to write the tickets (JSONL); - for stdout")
	seed := flag.Uint64("seed", dataset.DefaultSeed, "random seed")
	n := flag.Int("n", dataset.DefaultTickets, "number of tickets")
	quiet := flag.Bool("q", false, "do not print the summary")
	flag.Parse()

	if err := run(*corpus, *out, *seed, *n, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(corpusDir, out string, seed uint64, n int, quiet bool) error {
	c, err := dataset.LoadCorpus(corpusDir)
	if err != nil {
		return err
	}
	items, err := dataset.Generate(c, dataset.Options{Seed: seed, Tickets: n})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := dataset.WriteJSONL(&buf, items); err != nil {
		return err
	}
	if out == "-" {
		_, err = os.Stdout.Write(buf.Bytes())
	} else {
		err = os.WriteFile(out, buf.Bytes(), 0o644)
	}
	if err != nil {
		return err
	}
	if !quiet {
		fmt.Fprint(os.Stderr, dataset.Summary(items))
	}
	return nil
}
