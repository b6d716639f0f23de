package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/evals"
	"github.com/supportdraft/supportdraft/evals/intakereplay"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/slackreview"
	"github.com/supportdraft/supportdraft/store"
)

// slackPoster posts queued drafts to SUPPORTDRAFT_SLACK_CHANNEL; nil when it is unset.
func slackPoster(cfg config.Config) *slackreview.Poster {
	if cfg.SlackChannel == "" {
		return nil
	}
	return slackreview.NewPoster(cfg.SlackToken, cfg.SlackChannel, cfg.SlackAPIURL)
}

func newIntakeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "intake",
		Short: "Run inbound mail through the intake funnel",
		Long: `intake runs inbound messages through the funnel: duplicate and kill switch, first
responses only, automated mail and the domain and keyword rules, recipients, triage. Only
survivors are drafted. replay takes sets in the help desk's webhook format (JSONL);
imap reads a mailbox.`,
	}
	cmd.AddCommand(newIntakeReplayCmd(), newIntakeIMAPCmd())
	return cmd
}

func newIntakeReplayCmd() *cobra.Command {
	var agentID, messages, rulesFile, corpus string
	var asJSON, draft bool
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Replay a message set through the funnel and print the funnel report",
		Long: `replay runs every message of --messages through the real intake workflow (Postgres and
Temporal) on a scratch schema and task queue of its own, isolated from live traffic and
from earlier replays: the same file gives the same report twice, and a message repeated
inside the file is a duplicate. It prints messages in, how many stopped at each stage,
how many were drafted and how many of those were forced to review; for labelled sets
also decision accuracy (draft | review | skip), bucket accuracy, and genuine_dropped:
messages labelled genuine that the funnel skipped as noise (automated, blocked by a
rule, or needing no response); then each labelled message decided otherwise, with what
its label wants, what the funnel did and its reason: what to tune the agent's rules and
cues from. With the local triager, a message with no cue of any bucket, billing or not,
is drafted for review (stage "unsure"), never skipped. With --corpus, that corpus is
imported into the scratch schema and triage reads a message it finds no billing topic in
against its eligible policy: what the policy answers is drafted for review (stage
"unsure") in the bucket the policy's section names.
Survivors are drafted too only with --draft, from the same corpus; each draft is
discarded once built.

The rules come from --rules, else SUPPORTDRAFT_RULES; support addresses from
SUPPORTDRAFT_SUPPORT_ADDRESSES (default billing@*, support@*, help@*).

--agent replays as that agent (its context carries the agent down to the store) and
prints it on the report. A sample agent (evals/agents/ID/agent.yaml) brings its own
messages.jsonl, rules, corpus/, support addresses and triage buckets, so
"intake replay --agent payments" needs no other flag; --messages, --rules and --corpus
still override its files. The default agent (billing) needs no sample: its buckets are
built in and the flags name its files.`,
		Example: `  supportdraft intake replay --messages evals/messages.jsonl --rules evals/rules.yaml --corpus evals/corpus
  supportdraft intake replay --agent payments
  SUPPORTDRAFT_SUPPORT_ADDRESSES=billing@quokka.example supportdraft intake replay --messages set.jsonl --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			ctx, addresses, buckets := cmd.Context(), cfg.SupportAddresses, inbox.BucketSet(nil)
			var sampleRules *inbox.Rules // a sample agent's own rules, unless --rules names a file
			if agentID != "" {
				if err := agent.CheckID(agentID); err != nil {
					return usagef("--agent: %v", err)
				}
				ctx = agent.With(ctx, agentID)
				// The default agent needs no sample: its buckets are built in and the
				// flags name its files. Another agent's buckets come only from its sample.
				sample, err := evals.FindSample(".", agentID)
				switch {
				case err == nil:
					messages = cmp.Or(messages, sample.Messages())
					if sampleRules, err = sample.IntakeRules(); err != nil {
						return usagef("--agent: %v", err)
					}
					corpus = cmp.Or(corpus, sample.Corpus())
					addresses, buckets = sample.Addresses, sample.Buckets
				case !errors.Is(err, evals.ErrNoSample) || agentID != agent.Default:
					return usagef("--agent: %v", err)
				}
			}
			if messages == "" {
				return usagef("--messages is required without a sample --agent")
			}
			if sampleRules == nil || rulesFile != "" {
				rulesFile = cmp.Or(rulesFile, cfg.Rules)
			}
			rules, support, err := loadScreens(rulesFile, addresses)
			if err != nil {
				return err
			}
			if rulesFile == "" && sampleRules != nil {
				rules = sampleRules
			}
			if draft && corpus == "" {
				corpus = "corpus/sample"
			}
			msgs, err := inbox.ReadFile(messages)
			if err != nil {
				return usageError{err}
			}
			st, err := intakereplay.StartStack(ctx, intakereplay.StackOptions{DatabaseURL: cfg.DatabaseURL, TemporalAddress: cfg.TemporalAddress,
				Rules: rules, Support: support, Triager: providers.Triager(cfg, buckets), Buckets: buckets, Draft: draft, Corpus: corpus})
			if err != nil {
				return err
			}
			defer st.Close()
			report, err := intakereplay.Replay(ctx, st, msgs, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			report.Agent = agent.IDs(ctx)[0]
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), report)
			}
			return printFunnel(cmd.OutOrStdout(), report)
		},
	}
	cmd.Flags().StringVar(&agentID, "agent", "", "the agent to replay as; a sample agent's files (evals/agents/ID) are the defaults")
	cmd.Flags().StringVar(&messages, "messages", "", "JSONL file of inbound messages (required without a sample --agent)")
	cmd.Flags().StringVar(&rulesFile, "rules", "", "rules YAML file (default: SUPPORTDRAFT_RULES)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON, with every decision")
	cmd.Flags().BoolVar(&draft, "draft", false, "also draft the survivors (local providers, on the scratch schema)")
	cmd.Flags().StringVar(&corpus, "corpus", "", `the policy corpus triage reads messages against and drafts answer from (with --draft, default "corpus/sample")`)
	return cmd
}

// printFunnel prints the funnel as a table, then the labelled figures and the messages
// whose decision differs from their label.
func printFunnel(w io.Writer, r inbox.Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if r.Agent != "" {
		fmt.Fprintf(tw, "agent\t%s\n", r.Agent)
	}
	fmt.Fprintf(tw, "messages in\t%d\n", r.Messages)
	for _, s := range []struct {
		name string
		n    int
	}{{"duplicate", r.Stages.Duplicate}, {"kill_switch", r.Stages.KillSwitch}, {"not_first", r.Stages.NotFirst},
		{"automated", r.Stages.Automated}, {"rules_block", r.Stages.RulesBlock}, {"no_response", r.Stages.NoResponse},
		{"not_billing", r.Stages.NotBilling}} {
		fmt.Fprintf(tw, "  stopped: %s\t%d\n", s.name, s.n)
	}
	fmt.Fprintf(tw, "drafted\t%d (%.0f%% of intake)\n", r.Drafted, 100*float64(r.Drafted)/float64(max(r.Messages, 1)))
	fmt.Fprintf(tw, "  forced to review\t%d\n", r.ForcedReview)
	if r.DecisionAccuracy != nil {
		fmt.Fprintf(tw, "decision accuracy\t%.3f\n", *r.DecisionAccuracy)
	}
	if r.BucketAccuracy != nil {
		fmt.Fprintf(tw, "bucket accuracy\t%.3f\n", *r.BucketAccuracy)
	}
	if r.GenuineDropped != nil {
		fmt.Fprintf(tw, "genuine dropped\t%d\n", *r.GenuineDropped)
	}
	if len(r.Misses) > 0 {
		fmt.Fprintf(tw, "\nlabelled otherwise (%d)\twant\tgot\treason\n", len(r.Misses))
		for _, m := range r.Misses[:min(len(r.Misses), maxMissRows)] {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", m.MessageID, m.Want, m.Got, m.Reason)
		}
		if more := len(r.Misses) - maxMissRows; more > 0 {
			fmt.Fprintf(tw, "  … and %d more (--json has every decision)\n", more)
		}
	}
	return tw.Flush()
}

// maxMissRows is how many labelled messages decided otherwise the table lists: enough to
// tune from, not a screenful per message of a large replay.
const maxMissRows = 50

func newKillSwitchCmd() *cobra.Command {
	var by string
	cmd := &cobra.Command{
		Use:   "killswitch [on|off]",
		Short: "Halt or resume drafting at once (intake, the sidebar and rebuilds)",
		Long: `killswitch reads or sets the kill switch in the database. Intake, the sidebar and
rebuilds read it on every message and every request, so the change takes effect at once
on every worker and API process, with nothing restarted. With no argument it prints the
current state. The API offers the same at GET|POST /v1/admin/killswitch.`,
		Example: `  supportdraft killswitch on --by "ana (incident 42)"
  supportdraft killswitch off`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: []string{"on", "off"},
		RunE: withStore(func(cmd *cobra.Command, args []string, s *store.Store) error {
			if len(args) == 1 {
				if args[0] != "on" && args[0] != "off" {
					return usagef("killswitch %q: use on or off", args[0])
				}
				if err := s.SetHalted(cmd.Context(), args[0] == "on", by); err != nil {
					return err
				}
			}
			halted, err := s.Halted(cmd.Context())
			if err != nil {
				return err
			}
			state := "off: drafting runs"
			if halted {
				state = "on: drafting is halted"
			}
			fmt.Fprintln(cmd.OutOrStdout(), "kill switch", state)
			return nil
		}),
	}
	cmd.Flags().StringVar(&by, "by", os.Getenv("USER"), "who changes the switch, for the record")
	return cmd
}

// loadScreens reads what the intake funnel screens with, the rules file and the support
// addresses, as intake replay and bench intake both need them; a bad one is a usage error.
func loadScreens(rulesFile string, addresses []string) (*inbox.Rules, *inbox.Support, error) {
	rules, err := inbox.LoadRules(rulesFile)
	if err != nil {
		return nil, nil, usageError{err}
	}
	support, err := inbox.NewSupport(addresses)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return rules, support, nil
}
