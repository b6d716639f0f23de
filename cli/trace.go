package cli

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/provenance"
	"github.com/supportdraft/supportdraft/store"
)

// traceOutput is the JSON form of a trace: the result, plus the account comparison when
// --draft was given.
type traceOutput struct {
	*provenance.Result
	AccountCheck *provenance.AccountCheck `json:"account_check,omitempty"`
}

func newTraceCmd() *cobra.Command {
	var corpusDir, plan, region, locale, atFlag, draftTicket, vocabularyPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   `trace [--corpus DIR] "TERM"`,
		Short: "Find where a drafted term came from: absent, not eligible, or contradicted",
		Long: `trace answers the first question to ask when a draft asserted a term nobody expected
(a refund window, a credit, a cancellation right), before anyone touches a prompt: is it
written anywhere the drafting system could read?

It searches every version in the live policy store at DATABASE_URL (drafts, retired and
superseded versions, every locale, help-center articles and macros), or in a corpus
directory with --corpus, by wording and by concept: the same number and unit (here "one
month" does match "30 days", unlike in the guard), the same commercial verbs in any
language the vocabulary knows, and the subject of the term (a verb alone is no match: "a
refund for the hardware kit" needs the kit). Then it says which of these it is, because
each needs a different fix:

  absent                nobody wrote it: the drafter invented it; the guard strikes it
  present_not_eligible  written only where this account may not read it (draft, other
                        plan, region or locale): a scoping or index problem
  present_stale         written only in versions this account could read once, since
                        superseded or expired: rebuild the drafts, check the index
  present_contradicted  an eligible version states another value for the same term:
                        fix it at the document, not in the prompt
  present_eligible      an eligible version states it: the claim is grounded

Over the store it also searches the replies the help desk reported sending (their text
while retention keeps it) and lists those that state the term, and it records the
outcome in the traces table, which the admin page lists.

Eligibility is judged at --at (default now) for --plan, --region and --locale; any of
them left out means "any", and the output says so. --draft TICKET (needs DATABASE_URL)
also compares the account the ticket's latest draft was built for with the account on
the ticket now, and judges eligibility for the account now unless flags say otherwise:
a correct policy applied to a stale plan produces a false sentence from true inputs.`,
		Example: `  supportdraft trace --plan pro --region eu "30-day refund window"
  supportdraft trace --corpus corpus/sample "30-day refund window"
  supportdraft trace --corpus corpus/sample --plan pro --region eu --locale en "30-day refund window"
  supportdraft trace --corpus corpus/sample --plan pro --region eu --at 2026-01-15 --json "refund within one month"
  supportdraft trace --corpus corpus/sample --draft T-1001 "30-day refund window"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			at, err := parseInstant("--at", atFlag, time.Now())
			if err != nil {
				return err
			}
			vocab, err := vocabulary(vocabularyPath)
			if err != nil {
				return err
			}
			for _, f := range []struct{ flag, value string }{{"--plan", plan}, {"--region", region}, {"--locale", locale}} {
				if f.value != "" && !traceScope.MatchString(f.value) {
					return usagef("%s %q: use a name such as pro, eu or de-AT (letters, digits, '_' and '-')", f.flag, f.value)
				}
			}
			term := strings.Join(args, " ")
			if strings.TrimSpace(term) == "" {
				return usagef("TERM is empty: quote the claim from the draft, e.g. \"30-day refund window\"")
			}
			var s *store.Store
			var versions []*policy.Version
			var sent []provenance.SentReply
			if corpusDir != "" {
				if versions, err = policy.ParseDir(corpusDir); err != nil {
					return usageError{fmt.Errorf("--corpus: %w", err)}
				}
			} else {
				if s, _, err = openStore(cmd.Context()); err != nil {
					return fmt.Errorf("trace reads the policy store at DATABASE_URL (or give --corpus DIR): %w", err)
				}
				defer s.Close()
				if versions, err = s.AllVersions(cmd.Context()); err != nil {
					return err
				}
				if sent, err = s.SentReplies(cmd.Context()); err != nil {
					return err
				}
			}
			account := provenance.Account{Plan: plan, Region: region, Locale: locale, At: at}
			var check *provenance.AccountCheck
			if draftTicket != "" {
				c, err := checkDraftAccount(cmd, draftTicket)
				if err != nil {
					return err
				}
				check = &c
				account.Plan = firstNonEmpty(plan, c.Now.Plan)
				account.Region = firstNonEmpty(region, c.Now.Region)
				account.Locale = firstNonEmpty(locale, c.Now.Locale)
			}
			res, err := provenance.Trace(versions, sent, term, account, vocab)
			if err != nil {
				return usageError{err}
			}
			if s != nil {
				if _, err := s.RecordTrace(cmd.Context(), res); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), traceOutput{Result: res, AccountCheck: check})
			}
			printTrace(cmd.OutOrStdout(), res, check)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&corpusDir, "corpus", "", "policy corpus directory to search instead of the store (nothing is recorded)")
	f.StringVar(&plan, "plan", "", "account plan to judge eligibility for (default: any)")
	f.StringVar(&region, "region", "", "account region (default: any)")
	f.StringVar(&locale, "locale", "", "account locale, e.g. en or de (default: any)")
	f.StringVar(&atFlag, "at", "", "instant to judge eligibility at: RFC 3339 or YYYY-MM-DD (default now)")
	f.StringVar(&draftTicket, "draft", "", "ticket ID: also compare its latest draft's account with the ticket now (needs DATABASE_URL)")
	f.StringVar(&vocabularyPath, "vocabulary", "", "extra commitment vocabulary file (extends the built-in one)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// traceScope is what a plan, region or locale flag may hold: the front matter's names.
var traceScope = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// checkDraftAccount loads the ticket's latest draft and latest revision and compares the
// accounts they carry.
func checkDraftAccount(cmd *cobra.Command, ticketID string) (provenance.AccountCheck, error) {
	cfg, err := loadConfig()
	if err != nil {
		return provenance.AccountCheck{}, err
	}
	s, err := store.Open(cmd.Context(), cfg.DatabaseURL)
	if err != nil {
		return provenance.AccountCheck{}, fmt.Errorf("--draft needs the store: %w", err)
	}
	defer s.Close()
	d, err := s.LatestIteration(cmd.Context(), ticketID)
	if errors.Is(err, store.ErrNotFound) {
		return provenance.AccountCheck{}, usagef("--draft %s: no draft of this ticket in the store at DATABASE_URL; check the ticket ID", ticketID)
	}
	if err != nil {
		return provenance.AccountCheck{}, err
	}
	t, err := s.LatestTicket(cmd.Context(), ticketID)
	if errors.Is(err, store.ErrNotFound) {
		return provenance.AccountCheck{}, usagef("--draft %s: the draft exists but no revision of the ticket is stored; was it imported by hand?", ticketID)
	}
	if err != nil {
		return provenance.AccountCheck{}, err
	}
	return provenance.CheckAccount(d, t), nil
}

// printTrace writes a trace for people: the outcome first, then the evidence, then what
// to do.
func printTrace(w io.Writer, res *provenance.Result, check *provenance.AccountCheck) {
	fmt.Fprintf(w, "term:     %q\n", res.Term)
	fmt.Fprintf(w, "read as:  %s\n", reading(res.ReadAs))
	fmt.Fprintf(w, "account:  %s, at %s\n", res.Account, res.Account.At.UTC().Format(time.RFC3339))
	if check != nil {
		fmt.Fprintf(w, "          (the account on ticket %s now, revision %d, where no flag says otherwise)\n", check.TicketID, check.TicketRevision)
	}
	if res.Account.Plan == "" || res.Account.Region == "" {
		fmt.Fprintln(w, "          (no --plan/--region: eligibility judged for any account)")
	}
	fmt.Fprintf(w, "searched: %d versions, %d sentences (drafts, superseded, every locale, help center, macros)", res.Versions, res.Sentences)
	if res.RepliesRead > 0 {
		fmt.Fprintf(w, ", %d sent replies", res.RepliesRead)
	}
	fmt.Fprint(w, "\n\n")
	fmt.Fprintf(w, "OUTCOME: %s\n%s\n", res.Outcome, res.Explanation)

	if len(res.Matches) > 0 {
		fmt.Fprintf(w, "\nWhere it is written (%d sentences):\n", len(res.Matches))
		for i, m := range res.Matches {
			if i == 0 || m.Ref != res.Matches[i-1].Ref || m.Eligible != res.Matches[i-1].Eligible {
				verdict := "ELIGIBLE"
				if !m.Eligible {
					verdict = "not eligible: " + m.WhyNot
				}
				fmt.Fprintf(w, "  %s  [%s, %s, %s]  %s\n    %s\n", m.Ref, m.Source, m.Status, m.Locale, verdict, m.Path)
			}
			fmt.Fprintf(w, "    #%s  %q\n      matched: %s\n", anchor(m.ChunkID), m.Quote, m.How)
		}
	}
	if len(res.EligibleStatements) > 0 {
		title := "What eligible versions say instead"
		switch res.Outcome {
		case provenance.Absent:
			title = "What eligible versions say about it"
		case provenance.PresentEligible:
			title = "Other values in eligible versions (the same document, or another plan, region or locale)"
		}
		fmt.Fprintf(w, "\n%s (%d sentences):\n", title, len(res.EligibleStatements))
		for i, s := range res.EligibleStatements {
			if i == 0 || s.Ref != res.EligibleStatements[i-1].Ref {
				fmt.Fprintf(w, "  %s  [%s]  ELIGIBLE\n    %s\n", s.Ref, s.Locale, s.Path)
			}
			fmt.Fprintf(w, "    #%s  %q\n      states: %s\n", anchor(s.ChunkID), s.Quote, strings.Join(s.Values, ", "))
		}
	}
	if len(res.Sent) > 0 {
		fmt.Fprintf(w, "\nSent to customers (%d sentences):\n", len(res.Sent))
		for _, m := range res.Sent {
			fmt.Fprintf(w, "  %s #%d, sent %s  %q\n      matched: %s\n", m.TicketID, m.Iteration, m.SentAt.UTC().Format(time.RFC3339), m.Quote, m.How)
		}
	}
	if check != nil {
		fmt.Fprintf(w, "\nAccount state (--draft %s):\n", check.TicketID)
		for _, line := range strings.Split(strings.TrimRight(check.String(), "\n"), "\n") {
			fmt.Fprintln(w, "  "+line)
		}
	}
	fmt.Fprintf(w, "\nWhat to do: %s\n", res.Remedy)
}

func reading(r provenance.Reading) string {
	var parts []string
	if len(r.Amounts) > 0 {
		parts = append(parts, "amounts "+strings.Join(r.Amounts, ", "))
	}
	if len(r.Verbs) > 0 {
		parts = append(parts, "verbs "+strings.Join(r.Verbs, ", "))
	}
	if len(r.Topic) > 0 {
		parts = append(parts, "topic words "+strings.Join(r.Topic, ", "))
	}
	return strings.Join(parts, "; ")
}

func anchor(chunkID string) string {
	if i := strings.LastIndexByte(chunkID, '#'); i >= 0 {
		return chunkID[i+1:]
	}
	return chunkID
}

// parseInstant reads a time flag: RFC 3339, or a date (midnight UTC). Empty gives def.
func parseInstant(flag, value string, def time.Time) (time.Time, error) {
	if value == "" {
		return def, nil
	}
	if t, err := time.Parse(time.RFC3339, value); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, value); err == nil {
		return t, nil
	}
	return time.Time{}, usagef("%s %q: use an RFC 3339 time such as 2026-03-01T00:00:00Z or a date such as 2026-03-01", flag, value)
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
