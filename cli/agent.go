package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/store"
)

func newAgentCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "agent",
		Short: "Create, list, show and update the agents of this deployment",
		Long: `agent manages the agents one deployment serves: billing (the default, which every
database from before agents migrates to), payments operations, a second brand. Each agent
has its own corpus (policy import --agent ID), drafts, messages and verdicts, kept apart by
Postgres' row-level security, and its own settings: support addresses, intake rules,
commitment vocabulary, triage buckets, review delay and threshold, rubric, help desk and
Slack channel. Keep an agent's settings in a YAML file in git and apply it with create
--file or update --file; show prints the same format. Unknown fields are refused.`,
	}
	var name, file string
	var addresses []string
	create := &cobra.Command{
		Use:   "create ID [--name NAME] [--address ADDRESS]… [--file agent.yaml]",
		Short: "Create an agent from flags or its YAML file",
		Example: `  supportdraft agent create payments --name "Payments operations" --address payments@example.com
  supportdraft agent create payments --file agents/payments.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := agentFromFlags(cmd, args[0], file, name, addresses)
			if err != nil {
				return err
			}
			return inStore(cmd.Context(), func(st *store.Store) error {
				if err := st.CreateAgent(cmd.Context(), a); errors.Is(err, store.ErrAgentExists) {
					return usagef("agent %s exists; change it with supportdraft agent update %s --file FILE", a.ID, a.ID)
				} else if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "agent %s (%s) created; import its corpus with supportdraft policy import --agent %s DIR\n", a.ID, a.Name, a.ID)
				return nil
			})
		},
	}
	create.Flags().StringVar(&name, "name", "", "the agent's name, as reviewers see it")
	create.Flags().StringSliceVar(&addresses, "address", nil, "a support address whose mail the agent answers (repeatable)")
	create.Flags().StringVar(&file, "file", "", "the agent's YAML file (id, name, addresses, rules, buckets, …)")

	var updateFile string
	update := &cobra.Command{
		Use:     "update ID --file agent.yaml",
		Short:   "Replace an agent's name, addresses and settings with its YAML file",
		Example: `  supportdraft agent show payments > agents/payments.yaml; $EDITOR agents/payments.yaml; supportdraft agent update payments --file agents/payments.yaml`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if updateFile == "" {
				return usagef("--file is required: the agent's YAML file (supportdraft agent show %s prints the current one)", args[0])
			}
			a, err := agentFromFlags(cmd, args[0], updateFile, "", nil)
			if err != nil {
				return err
			}
			return inStore(cmd.Context(), func(st *store.Store) error {
				if err := st.UpdateAgent(cmd.Context(), a); errors.Is(err, store.ErrNotFound) {
					return usagef("agent %s does not exist; create it with supportdraft agent create %s --file %s", a.ID, a.ID, updateFile)
				} else if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "agent %s updated\n", a.ID)
				return nil
			})
		},
	}
	update.Flags().StringVar(&updateFile, "file", "", "the agent's YAML file")

	list := listCmd("List the agents", "ID\tNAME\tADDRESSES\tCREATED", (*store.Store).ListAgents, func(a agent.Agent) string {
		return fmt.Sprintf("%s\t%s\t%s\t%s", a.ID, a.Name, strings.Join(a.Addresses, ","), a.CreatedAt.UTC().Format("2006-01-02 15:04"))
	})
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print an agent as its YAML file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := agent.CheckID(args[0]); err != nil {
				return usageError{err}
			}
			return inStore(cmd.Context(), func(st *store.Store) error {
				a, err := st.GetAgent(cmd.Context(), args[0])
				if errors.Is(err, store.ErrNotFound) {
					return usagef("agent %s does not exist (supportdraft agent list)", args[0])
				} else if err != nil {
					return err
				}
				out, err := a.Marshal()
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(out)
				return err
			})
		},
	}
	cmd.AddCommand(create, update, list, show)
	return cmd
}

// agentFromFlags is the agent ID as file says it (when given), with --name and --address
// in place of the file's when set, checked: the ID matches the file's, every field is
// valid, and the rules and vocabulary the agent names parse.
func agentFromFlags(cmd *cobra.Command, id, file, name string, addresses []string) (agent.Agent, error) {
	a := agent.Agent{ID: id}
	if file != "" {
		var err error
		if a, err = agent.LoadFile(file); err != nil {
			return a, usageError{err}
		}
		if a.ID != id {
			return a, usagef("agent file %s: id: %q, but the command names agent %q", file, a.ID, id)
		}
	}
	if cmd.Flags().Changed("name") {
		a.Name = name
	}
	if cmd.Flags().Changed("address") {
		a.Addresses = addresses
	}
	if err := a.Check(); err != nil {
		return a, usagef("agent %s: %v", id, err)
	}
	if err := checkAgentFiles(a); err != nil {
		return a, usagef("agent %s: %v", id, err)
	}
	return a, nil
}

// checkAgentFiles parses the vocabulary file the agent's settings name in the format the
// service reads it with (its rules and rubric were read and checked with the agent file).
func checkAgentFiles(a agent.Agent) error {
	if a.VocabularyFile != "" {
		if _, err := guard.LoadVocabulary(a.VocabularyFile); err != nil {
			return fmt.Errorf("vocabulary_file: %w", err)
		}
	}
	return nil
}
