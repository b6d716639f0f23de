package cli

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

func newDraftCmd() *cobra.Command {
	var file string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "draft --ticket FILE.json",
		Short: "Draft a reply to one ticket through the running stack and print it",
		Long: `draft sends one ticket revision (a JSON object: ticket_id, revision, updated_at,
account {id, plan, region, locale}, channel, subject, messages) to the running API
(SUPPORTDRAFT_API_URL, default http://127.0.0.1:8080) with the agent token in
SUPPORTDRAFT_TOKEN (see "supportdraft token create"), waits for the draft workflow to
build it, and prints the reply with its citations, struck sentences and confidence.
--json prints the same object as GET /v1/drafts/{ticket}.`,
		Example: `  supportdraft draft --ticket examples/ticket-refund.json
  supportdraft draft --ticket examples/ticket-refund.json --json | jq .claims`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := readTicket(file)
			if err != nil {
				return err
			}
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			v, err := api.NewClient(cfg.APIURL, cfg.APIToken).Draft(cmd.Context(), t)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), v)
			}
			printDraft(cmd.OutOrStdout(), v)
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "ticket", "", "ticket revision as JSON (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the draft as JSON")
	_ = cmd.MarkFlagRequired("ticket")
	return cmd
}

func readTicket(path string) (*ticket.Ticket, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError{err}
	}
	t, err := ticket.Parse(raw)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return t, nil
}

// printDraft shows a draft the way an agent would read it, with its evidence trail.
func printDraft(w io.Writer, v *workflows.DraftView) {
	fmt.Fprintf(w, "Draft for ticket %s, revision %d (iteration %d) — %s, confidence %.2f\n", v.TicketID, v.Revision, v.Iteration, v.Status, v.Confidence)
	fmt.Fprintf(w, "Eligible policy judged at %s for plan %s, region %s\n\n", v.EligibleAt.UTC().Format("2006-01-02 15:04 UTC"), v.Account.Plan, v.Account.Region)
	fmt.Fprintln(w, indent(v.Reply))
	fmt.Fprintln(w)
	if len(v.Claims) > 0 {
		fmt.Fprintln(w, "Citations:")
		for _, c := range v.Claims {
			mark := "✓"
			if !c.Supported() {
				mark = "✗"
			}
			fmt.Fprintf(w, "  %s %s\n      %q\n", mark, strings.Join(c.ChunkIDs, ", "), c.Quote)
			if c.Failure != "" {
				fmt.Fprintf(w, "      rejected: %s\n", c.Failure)
			}
		}
	}
	if len(v.Struck) > 0 {
		fmt.Fprintln(w, "Struck (not covered by current policy):")
		for _, s := range v.Struck {
			fmt.Fprintf(w, "  - %q — %s\n", s.Text, s.Reason)
		}
	}
	fmt.Fprintf(w, "Scores: faithfulness %.2f, coverage %.2f, fit %.2f; unsupported claims %d\n", v.Scores.Faithfulness, v.Scores.Coverage, v.Scores.Fit, v.Unsupported)
	if v.Category != "" || v.Reasoning != "" {
		fmt.Fprintf(w, "Category: %s; the writer's reasoning: %s\n", cmp.Or(v.Category, "none"), cmp.Or(v.Reasoning, "none"))
	}
	if v.Rubric != nil {
		var parts []string
		for _, s := range v.Rubric.Scores {
			score := "not scored"
			if s.Scored() {
				score = fmt.Sprintf("%.2f", s.Value())
			}
			parts = append(parts, s.Criterion+" "+score)
		}
		fmt.Fprintf(w, "Quality (rubric %s): %s\n", v.Rubric.Rubric, strings.Join(parts, ", "))
	}
	var bound []string
	for _, b := range v.Bound {
		bound = append(bound, fmt.Sprintf("%s@%d", b.DocID, b.Version))
	}
	fmt.Fprintf(w, "Bound to: revision %d, %s\n", v.Revision, strings.Join(bound, ", "))
	if v.TemporalUI != "" {
		fmt.Fprintf(w, "Workflow history: %s\n", v.TemporalUI)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
