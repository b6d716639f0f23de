package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/integrations/zendesk"
)

func newIntegrationsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "integrations",
		Short: "Package the apps that put supportdraft inside a help desk",
	}
	zd := &cobra.Command{Use: "zendesk", Short: "The Zendesk Support ticket-sidebar app"}
	zd.AddCommand(newZendeskPackageCmd())
	cmd.AddCommand(zd)
	return cmd
}

func newZendeskPackageCmd() *cobra.Command {
	var base, out string
	cmd := &cobra.Command{
		Use:   "package --url https://supportdraft.example.com --out app.zip",
		Short: "Write the Zendesk app as the zip Zendesk installs",
		Long: `package writes the Zendesk Support app (manifest.json, translations, logos) as a zip to
upload as a private app. Its ticket_sidebar location points at --url plus
` + zendesk.SidebarPath + ` with signed URLs on: Zendesk posts a JWT there, which the
server verifies before it opens a session for the agent.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if base == "" || out == "" {
				return usagef("--url and --out are required")
			}
			sidebar, err := zendesk.SidebarURL(base)
			if err != nil {
				return usageError{err}
			}
			f, err := os.Create(out)
			if err != nil {
				return usageError{fmt.Errorf("--out: %w", err)}
			}
			if err := zendesk.Package(f, sidebar); err != nil {
				_ = f.Close()
				return fmt.Errorf("package the Zendesk app: %w", err)
			}
			if err := f.Close(); err != nil {
				return fmt.Errorf("write %s: %w", out, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (ticket_sidebar: %s)\n", out, sidebar)
			return nil
		},
	}
	cmd.Flags().StringVar(&base, "url", "", "the supportdraft server's https URL")
	cmd.Flags().StringVar(&out, "out", "", "where to write the app's zip")
	return cmd
}
