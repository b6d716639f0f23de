package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/store"
)

func newMigrateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply the embedded database migrations (safe to run again)",
		Long: `migrate applies every numbered SQL migration that the database has not recorded
yet, connected as the role that owns the schema: SUPPORTDRAFT_MIGRATE_URL, or DATABASE_URL
when it is not set. With SUPPORTDRAFT_APP_ROLE set it then grants that role SELECT,
INSERT, UPDATE and DELETE on every table and sequence (and on tables created later), and
nothing else: run the API and the worker as it. It also builds the vector index for the
configured embedder, which the app role may not. Running it twice is a no-op. The vector
and btree_gist extensions must exist (scripts/services.sh creates them as superuser).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			n, err := migrate(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "migrations applied: %d\n", n)
			if cfg.AppRole != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "role %s: SELECT, INSERT, UPDATE, DELETE only\n", cfg.AppRole)
			}
			return nil
		},
	}
}

// migrate applies the migrations as the schema's owner, builds the vector index for the
// configured embedder (DDL the app role may not run, so the worker never has to), and
// grants the app role its DML.
func migrate(ctx context.Context, cfg config.Config) (int, error) {
	n, err := store.Migrate(ctx, cfg.MigrateURL)
	if err != nil {
		return n, err
	}
	owner, err := store.Open(ctx, cfg.MigrateURL)
	if err != nil {
		return n, err
	}
	defer owner.Close()
	if err := owner.EnsureVectorIndex(ctx, providers.FromConfig(cfg).Embedder); err != nil {
		return n, err
	}
	if cfg.AppRole != "" {
		if err := store.GrantApp(ctx, cfg.MigrateURL, cfg.AppRole); err != nil {
			return n, err
		}
	}
	return n, nil
}
