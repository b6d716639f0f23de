package cli

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/store"
)

func newPurgeCmd() *cobra.Command {
	var dryRun, asJSON bool
	cmd := &cobra.Command{
		Use:   "purge",
		Short: "Remove customer and agent text older than SUPPORTDRAFT_RETENTION (90 days)",
		Long: `purge blanks, in one transaction, the text written before now minus
SUPPORTDRAFT_RETENTION (default 90d; a number of days such as 30d or a Go duration):
ticket subjects and messages, inbound mail's subject, body and addresses, the agents'
edits and send-check texts with the guard's checks of them, edited text on drafts, and
the sentences of the rejection log. Rows stay with their IDs, revisions, hashes,
verdicts, scores and counts, so reports and gaps still add up.

The worker runs the same purge daily through a Temporal Schedule (supportdraft-purge,
created or updated when a worker starts); this command runs it now. With --dry-run it
only prints what it would remove: rows per table and the oldest date.`,
		Example: `  supportdraft purge --dry-run
  SUPPORTDRAFT_RETENTION=30d supportdraft purge`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, cfg, err := openStore(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			rep, err := s.PurgeBefore(cmd.Context(), time.Now().Add(-cfg.Retention), dryRun)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			return printPurge(cmd, rep, cfg.Retention)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "only count what would be removed")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printPurge(cmd *cobra.Command, rep *store.PurgeReport, retention time.Duration) error {
	out := cmd.OutOrStdout()
	verb := "purged"
	if rep.DryRun {
		verb = "would purge"
	}
	fmt.Fprintf(out, "retention %s (%g days): text written before %s\n", retention, retention.Hours()/24, rep.Before.UTC().Format(time.RFC3339))
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "table\t%s\toldest\twhat\n", verb)
	for _, t := range rep.Tables {
		oldest := "—"
		if t.Oldest != nil {
			oldest = t.Oldest.UTC().Format("2006-01-02")
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", t.Table, t.Rows, oldest, t.What)
	}
	return tw.Flush()
}
