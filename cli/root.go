// Package cli holds the supportdraft subcommands. Each command reads the configuration
// once, wires the packages it needs and calls them; no domain logic lives here.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/store"
)

// usageError marks bad input (flags, files); it exits with code 2, as the `check`
// contract in docs/contracts.md asks, and other failures with 1.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// Execute runs the command line and returns the process exit code.
func Execute(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "supportdraft:", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "supportdraft",
		Short: "Draft billing-support replies from current, approved policy only",
		Long: `supportdraft drafts replies to billing support tickets from the company's current,
approved policy and nothing else. Every sentence that could bind the company (a number,
a refund, a credit, an eligibility statement) must cite an eligible policy chunk with a
verbatim quote, or it is struck. A human agent always sends.

Configuration comes from the environment (see the README): DATABASE_URL,
TEMPORAL_ADDRESS, SUPPORTDRAFT_PROVIDER (local | openai), OPENAI_API_KEY and more.
With no model configured, local deterministic providers draft, judge and embed.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newDevCmd(), newWorkerCmd(), newAPICmd(), newMigrateCmd(), newPolicyCmd(), newDraftCmd(), newBenchCmd())
	root.AddCommand(guardCommands()...)
	root.AddCommand(newEvalCmd(), newSearchCmd(), newCalibrateCmd())
	root.AddCommand(newIntakeCmd(), newKillSwitchCmd())
	root.AddCommand(newTokenCmd(), newPurgeCmd(), newIntegrationsCmd())
	root.AddCommand(newAgentCmd())
	return root
}

// loadConfig reads the environment; a bad variable is a usage error.
func loadConfig() (config.Config, error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

// openStore reads the configuration and connects to the policy store.
func openStore(ctx context.Context) (*store.Store, config.Config, error) {
	cfg, err := loadConfig()
	if err != nil {
		return nil, cfg, err
	}
	s, err := store.Open(ctx, cfg.DatabaseURL)
	return s, cfg, err
}

// writeJSON prints v indented, with <, > and & as written: every --json output is read by
// people and tools, never embedded in HTML.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// withStore opens the store for a command that needs nothing before it, and closes it
// after run.
func withStore(run func(cmd *cobra.Command, args []string, st *store.Store) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		return inStore(cmd.Context(), func(st *store.Store) error { return run(cmd, args, st) })
	}
}

// listCmd is a `list` subcommand that prints what list reads from the store as a table:
// header's tab-separated columns, then one row per item.
func listCmd[T any](short, header string, list func(*store.Store, context.Context) ([]T, error), row func(T) string) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: short,
		Args:  cobra.NoArgs,
		RunE: withStore(func(cmd *cobra.Command, _ []string, st *store.Store) error {
			items, err := list(st, cmd.Context())
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, header)
			for _, it := range items {
				fmt.Fprintln(w, row(it))
			}
			return w.Flush()
		}),
	}
}

// inStore runs fn on the store at DATABASE_URL and closes it after: a command that checks
// its arguments first opens the store through it once they pass.
func inStore(ctx context.Context, fn func(st *store.Store) error) error {
	st, _, err := openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(st)
}
