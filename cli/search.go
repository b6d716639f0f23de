package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// searchOutput is the JSON form of a search: what was asked, for whom and when, and the
// ranked hits with each arm's rank and score.
type searchOutput struct {
	At      time.Time      `json:"at"`
	Account policy.Account `json:"account"`
	// Notes says when no published policy names the account's plan or region (unnamed).
	Notes   []string    `json:"notes,omitempty"`
	Queries []string    `json:"queries"`
	Hits    []store.Hit `json:"hits"`
}

func newSearchCmd() *cobra.Command {
	var ticketFile, query, plan, region, locale, atFlag string
	var k int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "search (--ticket FILE.json | --query TEXT) [--plan P --region R]",
		Short: "Show what retrieval finds for a ticket or a question, and why: each arm's rank and the fused rank",
		Long: `search runs the retrieval a draft uses against the policy store at DATABASE_URL and
prints the eligible top k: the chunks the drafter would have read, best first. It is
how a QA lead sees why a draft cited what it cited, or missed what it should have.

Only chunks eligible at --at for the account's plan and region are ever searched: that
filter is applied before any ranking. Inside it, three arms rank chunks and their ranks
are fused:

  vector   similarity of the question's embedding to each chunk's (the configured
           embedder: the local hashing embedder, or an OpenAI model)
  lexical  BM25 over each chunk's words, English-stemmed and as written, where words of
           the document title count three times and of the section heading twice, rarer
           words weigh more, and a phrase of the question found as written
           ("Gold Rewards Card") adds a bonus
  document the same BM25 over the chunk's whole document, so a document whose sections
           share the question's words between them ranks as a whole

The lexical arm's rank r adds 1/(10 + r) to a chunk's fused score; the vector arm's adds
as much with an embedding model, and a quarter of it with the local hashing embedder,
whose vectors are themselves a bag of words; the document arm's rank of the chunk's
document adds half of it. A chunk in the account's locale adds half a first place. At most three chunks of one document come before the chunks of other
documents.

With --ticket, the ticket is searched as a draft searches it: each message read without
the mail it quotes or its signature, once for its whole text, once per customer message
of a thread and once per question of a message that asks several, and those lists are
fused the same way; the queries are printed as read. Each hit then shows the arm ranks of
the search that ranked it best. Plan, region and locale come from the ticket's account
unless flags say otherwise. A plan or region that no published policy names ("eu-west"
where policies name "eu") is noted above the queries: such an account is told only what
applies to every plan or region.

Columns: rank (fused), score (fused), vec (the vector arm's rank and similarity), lex
(the lexical arm's rank and BM25 score), doc (the document arm's rank and BM25 score of
the chunk's document), then the chunk doc_id@version#anchor and its
section. A "-" means that arm did not rank the chunk among its best. --at takes an RFC 3339
time or a date (default now); a draft is judged at the instant it was built.`,
		Example: `  supportdraft search --query "refund on an annual plan" --plan pro --region eu
  supportdraft search --ticket examples/ticket-refund.json
  supportdraft search --ticket examples/ticket-refund.json --at 2026-01-15 -k 20
  supportdraft search --query "Rückerstattung Jahresplan" --plan pro --region eu --locale de --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (ticketFile == "") == (query == "") {
				return usagef("search needs exactly one of --ticket FILE.json or --query TEXT")
			}
			if k < 1 || k > 200 {
				return usagef("-k %d: ask for between 1 and 200 chunks", k)
			}
			at, err := parseInstant("--at", atFlag, time.Now())
			if err != nil {
				return err
			}
			account := policy.Account{Plan: plan, Region: region, Locale: firstNonEmpty(locale, "en")}
			queries := []string{query}
			if ticketFile != "" {
				t, err := readTicket(ticketFile)
				if err != nil {
					return err
				}
				acct := t.Account.Eligibility()
				account = policy.Account{Plan: firstNonEmpty(plan, acct.Plan), Region: firstNonEmpty(region, acct.Region),
					Locale: firstNonEmpty(locale, acct.Locale)}
				queries = retrieval.TicketQueries(t)
			}
			if account.Plan == "" || account.Region == "" {
				return usagef("search --query needs --plan and --region: only what that account may be told is searched")
			}
			if err := checkAccountFlags(account.Plan, account.Region); err != nil {
				return err
			}
			s, cfg, err := openStore(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			plans, regions, err := s.NamedPlansAndRegions(cmd.Context())
			if err != nil {
				return err
			}
			r := &retrieval.Retriever{Store: s, Embedder: providers.Embedder(cfg)}
			hits, err := r.Search(cmd.Context(), at, account, queries, k)
			if err != nil {
				return err
			}
			out := searchOutput{At: at.UTC(), Account: account, Notes: unnamed(account, plans, regions), Queries: queries, Hits: hits}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), out)
			}
			printSearch(cmd.OutOrStdout(), out)
			return nil
		},
	}
	cmd.Flags().StringVar(&ticketFile, "ticket", "", "a ticket revision as JSON: search it as a draft would")
	cmd.Flags().StringVar(&query, "query", "", "a question to search for")
	cmd.Flags().StringVar(&plan, "plan", "", "the account's plan (default: the ticket's)")
	cmd.Flags().StringVar(&region, "region", "", "the account's region (default: the ticket's)")
	cmd.Flags().StringVar(&locale, "locale", "", "the account's locale, preferred in ranking (default: the ticket's, or en)")
	cmd.Flags().StringVar(&atFlag, "at", "", "judge eligibility at this instant: RFC 3339 or YYYY-MM-DD (default now)")
	cmd.Flags().IntVarP(&k, "k", "k", 10, "how many chunks to show (drafts read 20)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"at", "account", "notes", "queries", "hits": [...]} as JSON`)
	return cmd
}

// checkAccountFlags checks --plan and --region as a ticket's plan and region are checked
// (a lowercase token), so "EU" is refused rather than searched as a region no policy names.
// An empty one (any, where a command allows it) passes.
func checkAccountFlags(plan, region string) error {
	for _, f := range [][2]string{{"--plan", plan}, {"--region", region}} {
		if f[1] == "" {
			continue
		}
		if err := ticket.ValidToken(f[1]); err != nil {
			return usagef("%s %v", f[0], err)
		}
	}
	return nil
}

// unnamed notes the account's plan and region that no published policy names: such an
// account is told only what applies to every plan or region, which a typo ("eu-west")
// makes look like a retrieval fault. An empty plan or region (any), or a store whose
// policies name none, says nothing.
func unnamed(a policy.Account, plans, regions []string) []string {
	var notes []string
	for _, f := range []struct {
		field, value string
		named        []string
	}{{"plan", a.Plan, plans}, {"region", a.Region, regions}} {
		if f.value != "" && len(f.named) > 0 && !slices.Contains(f.named, f.value) {
			notes = append(notes, fmt.Sprintf("no published policy names %s %q (they name %s): only policies for every %s apply",
				f.field, f.value, strings.Join(f.named, ", "), f.field))
		}
	}
	return notes
}

// printSearch writes the ranked hits for people, one line each.
func printSearch(w io.Writer, o searchOutput) {
	a, hits := o.Account, o.Hits
	fmt.Fprintf(w, "Eligible at %s for plan %s, region %s (locale %s preferred)\n", o.At.Format(time.RFC3339), a.Plan, a.Region, a.Locale)
	for _, n := range o.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for i, q := range o.Queries {
		fmt.Fprintf(w, "query %d: %s\n", i+1, oneLine(q, 100))
	}
	if len(hits) == 0 {
		fmt.Fprintln(w, "\nNo chunk is eligible for this account at this instant.")
		return
	}
	fmt.Fprintf(w, "\n%4s  %-7s  %-12s  %-12s  %-12s  %s\n", "rank", "score", "vec", "lex", "doc", "chunk")
	for _, h := range hits {
		vec, lex, doc := "-", "-", "-"
		if h.VectorRank > 0 {
			vec = fmt.Sprintf("%d (%.3f)", h.VectorRank, h.Similarity)
		}
		if h.TextRank > 0 {
			lex = fmt.Sprintf("%d (%.2f)", h.TextRank, h.TextScore)
		}
		if h.DocRank > 0 {
			doc = fmt.Sprintf("%d (%.2f)", h.DocRank, h.DocScore)
		}
		fmt.Fprintf(w, "%4d  %.5f  %-12s  %-12s  %-12s  %s  %s\n", h.Rank, h.Fused, vec, lex, doc, h.ChunkID, oneLine(h.Title+" › "+h.Heading, 60))
	}
}

// oneLine folds s onto one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
