package cli

import (
	"cmp"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/evals"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/rubric"
)

// evalFlags are the eval command's flags.
type evalFlags struct {
	agent, corpus, tickets, jsonOut, htmlOut, reviews string
	limit, concurrency                                int
	maxStale, maxUnsupported                          float64
	noProgress                                        bool
}

func newEvalCmd() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval --corpus DIR --tickets FILE.jsonl | eval --agent ID",
		Short: "Replay a labelled ticket set at each ticket's own time and measure the drafts",
		Long: `eval replays every ticket of a labelled set through the same Temporal workflow and
activities that draft for agents, at the ticket's updated_at, against the corpus as it stood
then, and measures what came out. Each ticket is drafted twice in the same run:

  system    retrieval filtered to the versions eligible at that instant for the
            account's plan and region (what agents get)
  baseline  similarity-only retrieval, no metadata filters (what plain vector search
            would have quoted)

The corpus (Markdown files with YAML front matter, one per document version) is
imported into a scratch schema of DATABASE_URL that eval creates and drops; the live
policy store is never touched, so any outside corpus can be evaluated with one command. Drafts use the configured providers (the local extractive
drafter, rule judge and hashing embedder unless SUPPORTDRAFT_PROVIDER says otherwise).
TEMPORAL_ADDRESS must reach a Temporal server; eval runs its own workers on private task
queues. Tickets are JSONL (one ticket revision per line, with an "expect" label); a
line that is not a valid ticket is reported with its line number and skipped, and counted
under skipped_lines.

Every figure is judged by the eval itself, against the corpus at the ticket's instant,
not by the draft's own checks:

  unsupported_claim_rate    kept material sentences (numbers, refunds, credits, promises…)
                            not backed by a cited chunk that was eligible then for that
                            plan/region and states the sentence's numbers
  stale_source_rate         answers citing a version not eligible at the ticket's time
  useful_abstention_rate    abstentions on tickets labelled unanswerable / abstentions
  citation_precision        cited versions that are in expect.cite / cited versions
  citation_recall           answerable tickets citing at least one expected version
  must_include_rate         expected facts found in the reply / expected facts
  must_not_include_violations  replies stating a forbidden fact (superseded value, …)

Each draft also gets one QA label: grounded, incomplete (correct but misses a fact or
the expected source, or answers a question no policy covers), unsupported (one bad
sentence, stale source or forbidden fact is enough) or abstained (useful when the label
says no policy answers). The table shows the labels, their mean confidence (a
calibrated score is high for grounded, low for the rest) and the abstention rate per
policy area.

Confidence is the judge's raw score (0.6·faithfulness + 0.2·coverage + 0.2·fit, capped)
read through the calibration mapping the worker uses too (calibration/confidence.json,
refitted with supportdraft calibrate); expected_calibration_error is the mapping's,
raw_expected_calibration_error the raw score's, and the table names the sets the mapping
was fitted on: on any other set both are out of sample.

--agent runs the eval for that agent (its context carries the agent down to the store,
which keeps each agent's rows apart) and prints the agent on the figures. A sample agent
(evals/agents/ID/agent.yaml) needs no other flag: its corpus/ and tickets.jsonl are the
defaults, and --corpus or --tickets still override them.

--reviews compares a QA reviewer's labels with the automatic ones, per label, with
Cohen's kappa. Its lines are {"ticket_id": "...", "label": "grounded", "note": "..."}.

Exit codes: 0 when the system passes the gates, 1 when stale_source_rate exceeds
--max-stale or unsupported_claim_rate exceeds --max-unsupported (CI uses these), or a
draft failed, or a service is down; 2 for usage errors (flags, unreadable files, a corpus
that does not parse, a bad reviews line). The reports are written before the gates are
checked, so a failing run can still be read.`,
		Example: `  # the shipped set: table on stdout, JSON and HTML reports
  supportdraft eval --corpus evals/corpus --tickets evals/tickets.jsonl \
      --json eval.json --html eval.html

  # a quick look at the first 50 tickets
  supportdraft eval --corpus evals/corpus --tickets evals/tickets.jsonl --limit 50

  # CI: fail on any stale source or more than 1% unsupported claims
  supportdraft eval --corpus evals/corpus --tickets evals/tickets.jsonl --limit 80 \
      --max-stale 0 --max-unsupported 0.01 --no-progress

  # the payments-operations sample agent, from its own files
  supportdraft eval --agent payments

  # compare a reviewer's labels with the eval's
  supportdraft eval --corpus evals/corpus --tickets evals/tickets.jsonl --reviews qa.jsonl`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("eval takes no arguments (got %q): name the files with --corpus and --tickets", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return runEval(cmd, f) },
	}
	// A mistyped flag is a usage error too (exit 2), like every other bad input.
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	fl := cmd.Flags()
	fl.StringVar(&f.agent, "agent", "", "the agent to evaluate as; a sample agent's files (evals/agents/ID) are the defaults")
	fl.StringVar(&f.corpus, "corpus", "", "directory of policy version files (required without a sample --agent)")
	fl.StringVar(&f.tickets, "tickets", "", "JSONL file of labelled tickets (required without a sample --agent)")
	fl.StringVar(&f.jsonOut, "json", "", `write the JSON report to this file ("-": stdout, instead of the table)`)
	fl.StringVar(&f.htmlOut, "html", "", "write a self-contained HTML report with a chart per metric to this file")
	fl.StringVar(&f.reviews, "reviews", "", "JSONL file of a QA reviewer's labels to compare with the automatic ones")
	fl.IntVar(&f.limit, "limit", 0, "replay only the first N valid tickets (0: all)")
	fl.IntVar(&f.concurrency, "concurrency", evals.DefaultConcurrency, "drafts in flight at once (both arms together)")
	fl.Float64Var(&f.maxStale, "max-stale", 0, "fail (exit 1) when the system's stale_source_rate is above this")
	fl.Float64Var(&f.maxUnsupported, "max-unsupported", 0.01, "fail (exit 1) when the system's unsupported_claim_rate is above this")
	fl.BoolVar(&f.noProgress, "no-progress", false, "do not draw the progress bar on stderr")
	return cmd
}

func runEval(cmd *cobra.Command, f evalFlags) error {
	ctx := cmd.Context()
	if f.agent != "" {
		if err := agent.CheckID(f.agent); err != nil {
			return usagef("--agent: %v", err)
		}
		ctx = agent.With(ctx, f.agent)
		if f.corpus == "" || f.tickets == "" {
			sample, err := evals.FindSample(".", f.agent)
			if err != nil {
				return usagef("--agent: %v", err)
			}
			f.corpus = cmp.Or(f.corpus, sample.Corpus())
			f.tickets = cmp.Or(f.tickets, sample.Tickets())
		}
	}
	switch {
	case f.corpus == "":
		return usagef("--corpus is required: the directory of policy version files, e.g. --corpus evals/corpus")
	case f.tickets == "":
		return usagef("--tickets is required: a JSONL file of tickets, e.g. --tickets evals/tickets.jsonl")
	case f.limit < 0:
		return usagef("--limit is %d: use 0 (all tickets) or more", f.limit)
	case f.concurrency < 1:
		return usagef("--concurrency is %d: use 1 or more", f.concurrency)
	case f.maxStale < 0 || f.maxStale > 1:
		return usagef("--max-stale is %g: use a share between 0 and 1", f.maxStale)
	case f.maxUnsupported < 0 || f.maxUnsupported > 1:
		return usagef("--max-unsupported is %g: use a share between 0 and 1 (0.01 is 1%%)", f.maxUnsupported)
	}
	if st, err := os.Stat(f.corpus); err != nil || !st.IsDir() {
		return usagef("--corpus %s is not a directory", f.corpus)
	}
	var reviews []evals.Review
	if f.reviews != "" {
		var err error
		if reviews, err = evals.ReadReviews(f.reviews); err != nil {
			return usageError{err}
		}
	}
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	p := providers.FromConfig(cfg)
	quality, err := rubric.Load(cfg.Rubric)
	if err != nil {
		return usageError{fmt.Errorf("SUPPORTDRAFT_RUBRIC: %w", err)}
	}
	rep, err := evals.Run(ctx, evals.Options{
		Corpus: f.corpus, Tickets: f.tickets, DatabaseURL: cfg.DatabaseURL,
		TemporalAddress: cfg.TemporalAddress, TemporalNamespace: cfg.TemporalNamespace,
		Limit: f.limit, Concurrency: f.concurrency, Providers: &p, Rubric: quality,
		Stderr: cmd.ErrOrStderr(), NoProgress: f.noProgress,
	})
	if err != nil {
		if evals.IsInputError(err) {
			return usageError{err}
		}
		return err
	}
	if reviews != nil {
		rep.Reviews = evals.Compare(reviews, rep.Cases)
	}
	out := cmd.OutOrStdout()
	if f.jsonOut != "" {
		if err := rep.WriteJSON(f.jsonOut, out); err != nil {
			return err
		}
	}
	if f.htmlOut != "" {
		if err := rep.WriteHTML(f.htmlOut); err != nil {
			return err
		}
	}
	if f.jsonOut != "-" {
		if err := rep.WriteTable(out); err != nil {
			return err
		}
	}
	// Both reasons to fail are reported, the gate first: it is what CI is asking.
	var failed error
	if n := len(rep.Run.Failures); n > 0 {
		failed = fmt.Errorf("%d drafts failed to build (listed on stderr and under run.failures in the JSON report)", n)
	}
	return errors.Join(rep.Gate(f.maxStale, f.maxUnsupported), failed)
}
