package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/store"
)

func newTokenCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Create, list and revoke API tokens (roles: agent, reviewer, admin, helpdesk)",
		Long: `token manages the bearer tokens every API route and page asks for. A token is printed
once, at creation; the database keeps only its SHA-256. Roles:
  agent     read, open, edit, rebuild and discard drafts; send-check; the sidebar
  reviewer  everything an agent may, plus approve, pull back and kill queued drafts
  admin     everything, plus the admin views, /metrics and the kill switch
  helpdesk  only deliver signed webhooks: messages, revisions, send-checks, sent events
A token acts for the agents --agent names (default: billing, the default agent): a request
made with it sees only their drafts, queues and messages.`,
	}
	var role, name string
	var agents []string
	create := &cobra.Command{
		Use:   "create --role ROLE --name NAME [--agent ID]...",
		Short: "Create a token and print it once",
		Example: `  supportdraft token create --role agent --name "Zendesk sidebar, EU team"
  supportdraft token create --role reviewer --name "Ops leads" --agent billing --agent payments`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := auth.ParseRole(role)
			if err != nil {
				return usageError{err}
			}
			if name == "" {
				return usagef("--name is required: say who or what will use the token")
			}
			for _, a := range agents {
				if err := agent.CheckID(a); err != nil {
					return usagef("--agent: %v", err)
				}
			}
			return inStore(cmd.Context(), func(st *store.Store) error {
				tok, hash := auth.NewToken()
				t, err := st.CreateToken(cmd.Context(), name, string(r), agents, hash)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "token %d (%s, %s, agents %s) created. It is shown only now; store it in your secret manager:\n%s\n",
					t.ID, t.Role, t.Name, strings.Join(t.Agents, ","), tok)
				return nil
			})
		},
	}
	create.Flags().StringVar(&role, "role", "", "agent | reviewer | admin | helpdesk")
	create.Flags().StringVar(&name, "name", "", "who or what uses the token")
	create.Flags().StringArrayVar(&agents, "agent", nil, "an agent the token acts for (repeatable; default billing)")
	list := listCmd("List tokens (never the tokens themselves)", "ID\tROLE\tNAME\tAGENTS\tCREATED\tLAST USED\tREVOKED", (*store.Store).ListTokens,
		func(t store.Token) string {
			return fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%s", t.ID, t.Role, t.Name, strings.Join(t.Agents, ","),
				t.CreatedAt.UTC().Format("2006-01-02 15:04"), day(t.LastUsedAt), day(t.RevokedAt))
		})
	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token; its browser sessions end with it",
		Args:  cobra.ExactArgs(1),
		RunE: withToken(func(cmd *cobra.Command, id int64, st *store.Store) error {
			if err := st.RevokeToken(cmd.Context(), id); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "token %d revoked\n", id)
			return nil
		}),
	}
	var next string
	link := &cobra.Command{
		Use:   "link ID [--next /app/…]",
		Short: "Print a one-time sign-in link for a token (works once, for 10 minutes)",
		Long: `link mints a sign-in link for the token with this ID. The link carries a one-time code, not
the token: it signs one browser in, once, within 10 minutes, and stops working when the
token is revoked. Put the server's base URL in front of the printed path.`,
		Example: `  supportdraft token link 3 --next /app/tickets/T-1001`,
		Args:    cobra.ExactArgs(1),
		RunE: withToken(func(cmd *cobra.Command, id int64, st *store.Store) error {
			t, err := st.ActiveToken(cmd.Context(), id)
			if err != nil {
				return err
			}
			if auth.Role(t.Role) == auth.Helpdesk {
				return usagef("token %d is a help-desk token: it only delivers signed webhooks and cannot sign in to pages", id)
			}
			l, err := auth.SignInLink(cmd.Context(), st, id, next)
			if err != nil {
				return usageError{err}
			}
			fmt.Fprintln(cmd.OutOrStdout(), l)
			return nil
		}),
	}
	link.Flags().StringVar(&next, "next", "/app/", "the page to open after signing in")
	cmd.AddCommand(create, list, revoke, link)
	return cmd
}

// withToken parses the token ID a subcommand names, then runs run on the store the token
// lives in.
func withToken(run func(cmd *cobra.Command, id int64, st *store.Store) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		id, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil {
			return usagef("token ID %q: use the number `supportdraft token list` shows", args[0])
		}
		return inStore(cmd.Context(), func(st *store.Store) error { return run(cmd, id, st) })
	}
}
