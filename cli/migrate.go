package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/store"
)

func newMigrateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply the embedded database migrations (safe to run again)",
		Long: `migrate applies every numbered SQL migration that DATABASE_URL's database has not
recorded yet. Running it twice is a no-op. The vector and btree_gist extensions must
exist (scripts/services.sh creates them as superuser).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			n, err := store.Migrate(cmd.Context(), cfg.DatabaseURL)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "migrations applied: %d\n", n)
			return nil
		},
	}
}
