package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/contradictions"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// newPolicyLintCmd returns `policy lint DIR`, wired under the policy command.
func newPolicyLintCmd() *cobra.Command {
	var sinceFlag, vocabularyPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "lint [DIR]",
		Short: "Find approved versions that contradict each other for the same accounts",
		Long: `lint reads a corpus directory, or without DIR the policy store (DATABASE_URL: every
approved and superseded version stored), and warns about contradictions: two
versions of different documents, in the same policy area and locale, that can both be
served to one account at one instant (overlapping effective windows and overlapping
plans and regions) and state different values for the same term, such as a refund
window of 14 days in the wiki and "one month" in the help center.

A term is a commercial verb (refund, credit, cancel, …) with an amount in the same
sentence: a duration, money or a percentage. Two sentences are compared only when they
share enough words to be about the same thing. Drafts are skipped; a version closed by a
later version of its document is judged by its closed window, as the store would.

Do not paper over a contradiction with a prompt instruction or by tuning retrieval to
prefer one document: a system that relies on ranking to pick the right policy will
eventually rank the other one first. Fix it at the document.

Only overlaps that last past --since (default now) are reported: a contradiction that
ended in the past is history no edit can fix. Exit code 0: none found; 1: contradictions
found; 2: the directory could not be read or parsed.`,
		Example: `  supportdraft policy lint corpus/sample
  supportdraft policy lint --since 2025-01-01 corpus/sample
  supportdraft policy lint --json corpus/sample
  supportdraft policy lint            # the policy store`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			since, err := parseInstant("--since", sinceFlag, time.Now())
			if err != nil {
				return err
			}
			vocab, err := vocabulary(vocabularyPath)
			if err != nil {
				return err
			}
			versions, where, err := lintVersions(cmd, args)
			if err != nil {
				return err
			}
			findings := contradictions.Find(versions, since, vocab)
			out := cmd.OutOrStdout()
			if asJSON {
				if findings == nil {
					findings = []contradictions.Finding{}
				}
				if err := writeJSON(out, map[string]any{"versions": len(versions), "since": since.UTC(), "findings": findings}); err != nil {
					return err
				}
			} else {
				for _, f := range findings {
					fmt.Fprintf(out, "warning: %s\n\n", f)
				}
				fmt.Fprintf(out, "checked %d versions for contradictions eligible together after %s: %d found\n",
					len(versions), since.UTC().Format(time.RFC3339), len(findings))
			}
			if len(findings) > 0 {
				return fmt.Errorf("policy lint: %d %s in %s: fix it at the document, not in the prompt",
					len(findings), plural(len(findings), "contradiction"), where)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&sinceFlag, "since", "", "report overlaps that last past this instant: RFC 3339 or YYYY-MM-DD (default now)")
	cmd.Flags().StringVar(&vocabularyPath, "vocabulary", "", "extra commitment vocabulary file (extends the built-in one)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"versions": n, "since": …, "findings": [...]} as JSON`)
	return cmd
}

// lintVersions reads the versions lint checks: the directory given, or the policy store.
func lintVersions(cmd *cobra.Command, args []string) ([]*policy.Version, string, error) {
	if len(args) == 1 {
		versions, err := policy.ParseDir(args[0])
		if err != nil {
			return nil, "", usageError{fmt.Errorf("policy lint: %w", err)}
		}
		return versions, args[0], nil
	}
	s, _, err := openStore(cmd.Context())
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	versions, err := s.StoredVersions(cmd.Context())
	return versions, "the policy store", err
}

// newPolicyContradictionsCmd returns `policy contradictions`: the contradictions approvals
// were let through with (--accept-contradiction), newest first.
func newPolicyContradictionsCmd() *cobra.Command {
	var asJSON bool
	var limit int
	cmd := &cobra.Command{
		Use:   "contradictions",
		Short: "List the contradictions approvals were let through with, and why",
		Long: `contradictions lists every contradiction an operator accepted with policy import or
approve --accept-contradiction: both versions and sections, the values, the reason and
who gave it. They stay open until one of the documents is fixed.`,
		Example: `  supportdraft policy contradictions
  supportdraft policy contradictions --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 1 || limit > 10000 {
				return usagef("--limit %d: use 1 to 10000", limit)
			}
			return inStore(cmd.Context(), func(s *store.Store) error {
				accepted, err := s.AcceptedContradictions(cmd.Context(), limit)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if asJSON {
					if accepted == nil {
						accepted = []store.AcceptedContradiction{}
					}
					return writeJSON(out, map[string]any{"accepted": accepted})
				}
				for _, a := range accepted {
					fmt.Fprintf(out, "%s  %s: %s %s vs %s %s\n  reason (%s): %s\n", a.At.UTC().Format(time.RFC3339), a.Term,
						a.A.ChunkID, strings.Join(a.A.Values, ", "), a.B.ChunkID, strings.Join(a.B.Values, ", "), a.AcceptedBy, a.Reason)
				}
				fmt.Fprintf(out, "%d accepted contradiction(s)\n", len(accepted))
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"accepted": [...]} as JSON`)
	cmd.Flags().IntVar(&limit, "limit", 100, "list at most this many")
	return cmd
}
