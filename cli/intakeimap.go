package cli

import (
	"fmt"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/intake"
	"github.com/supportdraft/supportdraft/mailbox"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/workflows"
)

func newIntakeIMAPCmd() *cobra.Command {
	var once bool
	cmd := &cobra.Command{
		Use:   "imap",
		Short: "Read an IMAP mailbox into the intake funnel",
		Long: `imap reads the mailbox SUPPORTDRAFT_IMAP_MAILBOX (default INBOX) of SUPPORTDRAFT_IMAP_USER
on SUPPORTDRAFT_IMAP_ADDR (host:port) and runs every message through the intake funnel,
as POST /v1/inbox/raw does: MIME decoded, threads joined by Message-ID, our own mail
(SUPPORTDRAFT_OWN_ADDRESSES) skipped as a loop. Workers (supportdraft worker) run the
funnel. It then waits for new mail with IMAP IDLE, or polls every SUPPORTDRAFT_IMAP_POLL
where the server has no IDLE, until stopped.

Each message is taken once, by UID: the UID is recorded in Postgres before the message
enters the funnel and marked delivered after, so a poller stopped or killed at any
point resumes where it was. The mailbox is opened read-only; flags are not changed.
SUPPORTDRAFT_IMAP_TLS is tls (port 993, the default), starttls, or none (only for a
server on this machine).`,
		Example: `  SUPPORTDRAFT_IMAP_ADDR=imap.company.example:993 SUPPORTDRAFT_IMAP_USER=billing@company.example \
  SUPPORTDRAFT_IMAP_PASSWORD=… supportdraft intake imap
  supportdraft intake imap --once   # take what is waiting, then exit`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			if cfg.IMAPAddr == "" || cfg.IMAPUser == "" {
				return usagef("set SUPPORTDRAFT_IMAP_ADDR (host:port) and SUPPORTDRAFT_IMAP_USER, and SUPPORTDRAFT_IMAP_PASSWORD")
			}
			st, err := openStack(cmd.Context(), cfg, false)
			if err != nil {
				return err
			}
			defer st.Close()
			p, err := newPoller(st, cfg)
			if err != nil {
				return err
			}
			if once {
				n, err := p.Once(cmd.Context())
				fmt.Fprintf(cmd.OutOrStdout(), "%d messages taken from %s\n", n, p.Name())
				return err
			}
			slog.Info("reading mailbox", "mailbox", p.Name())
			return p.Run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&once, "once", false, "take the messages waiting, then exit")
	return cmd
}

// newPoller wires the mailbox poller from the configuration: the same target as the inbox
// routes, so mail from IMAP and from the API meet the same funnel.
func newPoller(st *stack.Stack, cfg config.Config) (*mailbox.Poller, error) {
	own, err := cfg.Mail.Own()
	if err != nil {
		return nil, usageError{fmt.Errorf("SUPPORTDRAFT_OWN_ADDRESSES: %w", err)}
	}
	return &mailbox.Poller{
		Config: mailbox.Config{Addr: cfg.IMAPAddr, User: cfg.IMAPUser, Password: cfg.IMAPPassword,
			Mailbox: cfg.IMAPMailbox, TLS: cfg.IMAPTLS, Poll: cfg.IMAPPoll},
		Store: st.Store,
		Target: intake.Target{Store: st.Store, Temporal: st.Temporal, TaskQueue: workflows.TaskQueue,
			RemoteTriage: providers.Triager(cfg, nil).Remote(), Draft: true, Own: own, Agents: st.Store},
		Log: slog.Default(),
	}, nil
}
