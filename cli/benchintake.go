package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/bench"
	"github.com/supportdraft/supportdraft/inbox"
)

func newBenchIntakeCmd() *cobra.Command {
	var n, concurrency int
	var set, rulesFile string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "intake",
		Short: "Messages per second and decision latency through the intake funnel on the real stack",
		Long: `intake sends --messages inbound messages through the real intake workflow (Postgres, the
Temporal dev server, an in-process worker, the local classifier) on a scratch schema and
task queue, cycling through --set with fresh message IDs, and prints messages per second
and the decision latency as the webhook sees it: p50 and p99 over all messages, and p99
separately for messages that stop before triage (target: under 100 ms) and for those
that reach it. Nothing is drafted: bench workflow measures drafts.`,
		Example: `  supportdraft bench intake --messages 2000 --json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			msgs, err := inbox.ReadFile(set)
			if err != nil {
				return usageError{err}
			}
			rules, support, err := loadScreens(rulesFile, cfg.SupportAddresses)
			if err != nil {
				return err
			}
			res, err := bench.Intake(cmd.Context(), cfg.DatabaseURL, cfg.TemporalAddress, bench.IntakeOptions{
				Messages: n, Concurrency: concurrency, Set: msgs, Rules: rules, Support: support, Progress: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, res)
			}
			fmt.Fprintf(out, "messages %d (concurrency %d)\nthroughput %.1f messages/s\ndecision latency p50 %.1f ms, p99 %.1f ms\nstopped before triage: %d, p99 %.1f ms (target < 100 ms)\nreached triage: %d, p99 %.1f ms\n",
				res.Messages, res.Concurrency, res.MessagesPerS, res.P50Ms, res.P99Ms, res.BeforeTriage, res.BeforeTriageP99Ms, res.Triaged, res.TriagedP99Ms)
			b := res.BeforeTriageTasks
			fmt.Fprintf(out, "  where it goes (stopped before triage): workflow task wait p50 %.1f / p99 %.1f ms, run on the worker p50 %.1f / p99 %.1f ms (%d tasks), workflow start to close p50 %.1f / p99 %.1f ms; the rest is the store write and the start and result calls\n",
				b.ScheduleToStartP50, b.ScheduleToStartP99, b.StartToCompleteP50, b.StartToCompleteP99, b.Tasks, b.RunP50, b.RunP99)
			return nil
		},
	}
	cmd.Flags().IntVar(&n, "messages", 1000, "how many messages to send")
	cmd.Flags().IntVar(&concurrency, "concurrency", 4, "messages in flight at once")
	cmd.Flags().StringVar(&set, "set", "evals/messages.jsonl", "message set to cycle through")
	cmd.Flags().StringVar(&rulesFile, "rules", "evals/rules.yaml", "rules file")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as JSON")
	return cmd
}
