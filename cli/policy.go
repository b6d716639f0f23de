package cli

import (
	"errors"
	"fmt"
	"io"
	"os/user"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/contradictions"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/sendcheck"
	"github.com/supportdraft/supportdraft/store"
)

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Import, approve and list policy versions",
		Long: `The policy store holds every version of every policy document: drafts, approved and
superseded ones. Only versions eligible at an instant (approved, inside their effective
window, in scope for the account's plan and region) are ever quoted in a draft.
The corpus format is one Markdown file per document version with YAML front matter;
see corpus/sample/ for examples.`,
	}
	cmd.AddCommand(newPolicyImportCmd(), newPolicyApproveCmd(), newPolicyListCmd(), newPolicyLintCmd(), newPolicyContradictionsCmd())
	return cmd
}

func newPolicyImportCmd() *cobra.Command {
	var r resolution
	cmd := &cobra.Command{
		Use:   "import DIR",
		Short: "Import every version file under DIR, all or nothing",
		Long: `import parses every .md file under DIR, refuses the whole import if any file is
invalid (every problem is listed with its file and field), and otherwise stores all of
them in one transaction. Re-importing identical files changes nothing; changed content
under an existing doc_id@version is refused. Approving a newer version supersedes the
older one in the same transaction. A body is Markdown; HTML in it, or a whole article
exported from a help centre as HTML, is read as the Markdown it stands for.

Contradictions block approval: an approved version that states a different value for
the same term (a refund window of 21 days against one of 30) than an approved version of
another document, eligible for the same plans, regions and locale at the same time, is
refused with both documents, sections and values named. Fix one of the documents, or
resolve it here: --supersedes DOC retires DOC's open versions from the moment the new
version takes effect; --accept-contradiction REASON lets it through and records the
contradiction with the reason (listed by policy contradictions and on the admin page).

Open drafts quoting a version an approval replaces are marked stale at once.`,
		Example: `  supportdraft policy import corpus/sample
  supportdraft policy import --agent payments corpus/payments
  supportdraft policy import --supersedes helpcenter/refunds corpus/next`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := r.check(); err != nil {
				return err
			}
			versions, err := policy.ParseDir(args[0])
			if err != nil {
				return usageError{fmt.Errorf("nothing imported:\n%w", err)}
			}
			return importVersions(cmd, versions, r)
		},
	}
	r.flags(cmd)
	return cmd
}

func newPolicyApproveCmd() *cobra.Command {
	var r resolution
	cmd := &cobra.Command{
		Use:   "approve FILE",
		Short: "Approve one version file (supersedes the previous version)",
		Long: `approve imports a single version file whose front matter says status: approved, with
its effective_from, plans and regions. The version it replaces gets effective_to and the
status superseded in the same transaction. A contradiction with another approved document
is refused as for import (see policy import --help for --supersedes and
--accept-contradiction).`,
		Example: `  supportdraft policy approve corpus/sample/billing/refunds-annual/v4.md
  supportdraft policy approve --accept-contradiction "legal approved both until the macro is rewritten" FILE`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := r.check(); err != nil {
				return err
			}
			v, err := policy.ParseFile(args[0])
			if err != nil {
				return usageError{err}
			}
			if v.Status != policy.StatusApproved {
				return usagef("%s: status is %q; set status: approved (with effective_from, plans and regions) to approve it", args[0], v.Status)
			}
			return importVersions(cmd, []*policy.Version{v}, r)
		},
	}
	r.flags(cmd)
	return cmd
}

// resolution is how the operator resolves the contradictions an approval brings.
type resolution struct {
	supersedes []string // other documents the approval retires
	accept     string   // reason for letting the remaining contradictions through
	agent      string   // whose corpus the versions join
}

func (r *resolution) flags(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&r.supersedes, "supersedes", nil, "doc ID of another document this approval replaces (repeatable): its open versions are retired")
	cmd.Flags().StringVar(&r.accept, "accept-contradiction", "", "approve despite contradictions with approved policy, recording this reason")
	cmd.Flags().StringVar(&r.agent, "agent", agent.Default, "the agent whose corpus the versions join (see supportdraft agent list)")
}

// check refuses malformed flags, naming them.
func (r *resolution) check() error {
	for _, doc := range r.supersedes {
		if err := policy.CheckDocID(doc); err != nil {
			return usagef("--supersedes %q: %v", doc, err)
		}
	}
	if err := agent.CheckID(r.agent); err != nil {
		return usagef("--agent: %v", err)
	}
	if r.accept != "" && strings.TrimSpace(r.accept) == "" || len(r.accept) > 2000 {
		return usagef("--accept-contradiction: give a reason of 1 to 2,000 characters")
	}
	return nil
}

// importVersions writes versions as the schema's owner (SUPPORTDRAFT_MIGRATE_URL): a new
// plan or region gets its retrieval partition, a table, which the API's role may not create.
func importVersions(cmd *cobra.Command, versions []*policy.Version, r resolution) error {
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	s, err := store.Open(cmd.Context(), cfg.MigrateURL)
	if err != nil {
		return err
	}
	defer s.Close()
	// Everything below acts for the one agent: the versions join its corpus, contradictions
	// are looked for in its policy, and only its drafts turn stale.
	if _, err := s.GetAgent(cmd.Context(), r.agent); errors.Is(err, store.ErrNotFound) {
		return usagef("--agent %s: no such agent; create it first with supportdraft agent create", r.agent)
	} else if err != nil {
		return err
	}
	cmd.SetContext(agent.With(cmd.Context(), r.agent))
	emb := providers.Embedder(cfg)
	vocab, err := vocabulary(cfg.Vocabulary)
	if err != nil {
		return err
	}
	approval, err := resolve(cmd, s, versions, vocab, r)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(cmd.ErrOrStderr(), "importing %d version(s) with embedder %s…\n", len(versions), emb.Name())
	res, err := s.ImportApproval(cmd.Context(), versions, emb, approval)
	if err != nil {
		return fmt.Errorf("nothing imported: %w", err)
	}
	if n := len(approval.Accepted); n > 0 {
		fmt.Fprintf(out, "accepted %d contradiction(s) with approved policy, recorded with the reason\n", n)
	}
	n, err := s.Reembed(cmd.Context(), emb, progressLine(cmd.ErrOrStderr(), "re-embedding"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "added %d, unchanged %d, superseded %d, re-embedded %d chunk(s)\n",
		len(res.Added), len(res.Unchanged), len(res.Superseded), n)
	for _, ref := range res.Added {
		fmt.Fprintln(out, "  added     ", ref)
	}
	for _, ref := range res.Superseded {
		fmt.Fprintln(out, "  superseded", ref)
	}
	return markStale(cmd, cfg, approvedAdded(versions, res.Added))
}

// resolve checks versions against the approved policy in the store (contradictions.
// Against): a contradiction neither --supersedes nor --accept-contradiction resolves
// refuses the whole import, naming both sides.
func resolve(cmd *cobra.Command, s *store.Store, versions []*policy.Version, vocab *guard.Vocabulary, r resolution) (store.Approval, error) {
	a := store.Approval{Supersedes: r.supersedes, Reason: strings.TrimSpace(r.accept), By: operator()}
	stored, err := s.StoredVersions(cmd.Context())
	if err != nil {
		return a, err
	}
	open := contradictions.Unresolved(contradictions.Against(versions, stored, time.Now(), vocab), r.supersedes)
	if len(open) == 0 {
		return a, nil
	}
	if a.Reason != "" {
		for _, f := range open {
			fmt.Fprintf(cmd.ErrOrStderr(), "accepted: %s\n\n", f)
		}
		a.Accepted = open
		return a, nil
	}
	for _, f := range open {
		fmt.Fprintf(cmd.ErrOrStderr(), "contradiction: %s\n\n", f)
	}
	return a, fmt.Errorf("nothing imported: %d %s with approved policy; fix one of the documents, or pass --supersedes DOC (this approval replaces DOC) or --accept-contradiction REASON (recorded)",
		len(open), plural(len(open), "contradiction"))
}

// operator names who ran the command, for the record of an accepted contradiction.
func operator() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

// approvedAdded lists the documents of the approved versions this import added.
func approvedAdded(versions []*policy.Version, added []string) []string {
	var docs []string
	for _, v := range versions {
		if v.Status == policy.StatusApproved && slices.Contains(added, v.Ref()) && !slices.Contains(docs, v.DocID) {
			docs = append(docs, v.DocID)
		}
	}
	return docs
}

// markStale turns the open drafts that quote a version these approvals replace stale at
// once (sendcheck.MarkStale). The import stands if Temporal cannot be reached: those
// drafts are then found stale at their next send-check, and the warning says so.
func markStale(cmd *cobra.Command, cfg config.Config, docIDs []string) error {
	if len(docIDs) == 0 {
		return nil
	}
	st, err := openStack(cmd.Context(), cfg, false)
	if err == nil {
		defer st.Close()
		var told []store.StaleDraft
		if told, err = sendcheck.MarkStale(cmd.Context(), st.Store, st.Temporal, docIDs, time.Now()); err == nil {
			fmt.Fprintf(cmd.OutOrStdout(), "marked %d open draft(s) stale\n", len(told))
			for _, d := range told {
				fmt.Fprintf(cmd.OutOrStdout(), "  stale      %s #%d: %s\n", d.TicketID, d.Iteration, d.Reasons[0].Message)
			}
			return nil
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "warning: open drafts quoting %s were not marked stale now (%v); their next send-check finds them stale\n",
		strings.Join(docIDs, ", "), err)
	return nil
}

func newPolicyListCmd() *cobra.Command {
	var asOf, plan, region string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List stored versions and which are eligible",
		Long: `list shows every stored version with its status, window and scope, and marks the ones
eligible at --as-of (default now) for --plan and --region (default: any). A plan or region
that no published policy names ("eu-west" where policies name "eu") is noted first: such an
account is told only what applies to every plan or region.`,
		Example: `  supportdraft policy list
  supportdraft policy list --as-of 2026-01-15T00:00:00Z --plan pro --region eu`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			at := time.Now()
			if asOf != "" {
				t, err := time.Parse(time.RFC3339, asOf)
				if err != nil {
					return usagef("--as-of %q: use an RFC 3339 time such as 2026-03-01T00:00:00Z", asOf)
				}
				at = t
			}
			if err := checkAccountFlags(plan, region); err != nil {
				return err
			}
			return inStore(cmd.Context(), func(s *store.Store) error {
				rows, err := s.ListVersions(cmd.Context(), at, plan, region)
				if err != nil {
					return err
				}
				plans, regions, err := s.NamedPlansAndRegions(cmd.Context())
				if err != nil {
					return err
				}
				for _, n := range unnamed(policy.Account{Plan: plan, Region: region}, plans, regions) {
					fmt.Fprintf(cmd.OutOrStdout(), "note: %s\n", n)
				}
				printVersions(cmd.OutOrStdout(), rows, at)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&asOf, "as-of", "", "instant to judge eligibility at (RFC 3339; default now)")
	cmd.Flags().StringVar(&plan, "plan", "", "account plan, e.g. pro (default: any)")
	cmd.Flags().StringVar(&region, "region", "", "account region, e.g. eu (default: any)")
	return cmd
}

func printVersions(w io.Writer, rows []store.VersionRow, at time.Time) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ELIGIBLE\tDOC\tV\tSTATUS\tSOURCE\tLOCALE\tFROM\tTO\tPLANS\tREGIONS\tCHUNKS\n")
	for _, r := range rows {
		mark := ""
		if r.Eligible {
			mark = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", mark, r.DocID, r.Version, r.Status,
			r.Source, r.Locale, day(r.EffectiveFrom), day(r.EffectiveTo), strings.Join(r.Plans, ","),
			strings.Join(r.Regions, ","), r.Chunks)
	}
	tw.Flush()
	fmt.Fprintf(w, "eligibility judged at %s\n", at.UTC().Format(time.RFC3339))
}

func day(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format("2006-01-02")
}

// progressLine returns a progress callback that rewrites one stderr line.
func progressLine(w io.Writer, what string) func(done, total int) {
	return func(done, total int) {
		fmt.Fprintf(w, "\r%s %d/%d", what, done, total)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}
