package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/policy"
)

func newDevCmd() *cobra.Command {
	var corpus, ticketFile string
	var once bool
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Migrate, import the sample corpus, run worker + API, and print a first draft",
		Long: `dev is the whole product on one machine: it applies migrations, imports the corpus
(default corpus/sample), runs the Temporal worker and the HTTP API in this process,
drafts the example ticket through the API and prints it with its citations and the
Temporal UI link, then keeps serving until Ctrl-C (or exits with --once).
Postgres and Temporal must be running: scripts/dev.sh starts them first.`,
		Example: `  scripts/dev.sh                      # services up, then this command
  supportdraft dev --once             # print the first draft and exit`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			out := cmd.OutOrStdout()
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			n, err := migrate(ctx, cfg)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "migrations applied: %d\n", n)
			versions, err := policy.ParseDir(corpus)
			if err != nil {
				return usageError{fmt.Errorf("corpus %s:\n%w", corpus, err)}
			}
			st, err := openStack(ctx, cfg, true)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := reembed(ctx, st); err != nil {
				return err
			}
			res, err := st.Store.Import(ctx, versions, st.Providers.Embedder)
			if err != nil {
				return fmt.Errorf("import %s: %w", corpus, err)
			}
			fmt.Fprintf(out, "corpus %s: %d versions added, %d unchanged\n", corpus, len(res.Added), len(res.Unchanged))
			// A local admin token for this run (the sign-in link below carries a one-time code for it), and a
			// webhook secret if none is configured, so the help-desk routes work locally.
			token, hash := auth.NewToken()
			devToken, err := st.Store.CreateToken(ctx, "supportdraft dev", string(auth.Admin), nil, hash)
			if err != nil {
				return err
			}
			if cfg.WebhookSecret == "" {
				cfg.WebhookSecret = randomHex(32)
			}
			w, err := startWorker(cmd.Context(), st, cfg)
			if err != nil {
				return err
			}
			defer w.Stop()
			serveCtx, stop := context.WithCancel(ctx)
			defer stop()
			errc := make(chan error, 1)
			go func() { errc <- serveAPI(serveCtx, st, cfg) }()
			t, err := readTicket(ticketFile)
			if err != nil {
				return err
			}
			client := api.NewClient("http://"+cfg.HTTPAddr, token)
			if err := client.WaitReady(ctx, 10*time.Second); err != nil {
				return err
			}
			v, err := client.Draft(ctx, t)
			if err != nil {
				return err
			}
			fmt.Fprintln(out)
			printDraft(out, v)
			fmt.Fprintf(out, "\nAPI: http://%s   Temporal UI: %s\n", cfg.HTTPAddr, cfg.TemporalUI)
			fmt.Fprintf(out, "Admin token for this run (revoke with `supportdraft token revoke`): %s\n", token)
			fmt.Fprintf(out, "Help-desk webhook secret (SUPPORTDRAFT_WEBHOOK_SECRET): %s\n", cfg.WebhookSecret)
			link, err := auth.SignInLink(ctx, st.Store, devToken.ID, "/app/tickets/"+url.PathEscape(t.TicketID))
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Sidebar (open in a browser within 10 minutes; the link signs you in once, then `supportdraft token link %d` mints another): http://%s%s\n",
				devToken.ID, cfg.HTTPAddr, link)
			if once {
				stop()
				return <-errc
			}
			fmt.Fprintln(out, "Serving; press Ctrl-C to stop.")
			return <-errc
		},
	}
	cmd.Flags().StringVar(&corpus, "corpus", "corpus/sample", "policy corpus directory to import")
	cmd.Flags().StringVar(&ticketFile, "ticket", "examples/ticket-refund.json", "ticket to draft first")
	cmd.Flags().BoolVar(&once, "once", false, "exit after printing the first draft")
	return cmd
}

// randomHex returns n random bytes as hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
