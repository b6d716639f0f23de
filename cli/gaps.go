package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/store"
)

// defaultGapsWindow is how far back gaps looks by default: the rejection log is meant to be
// read monthly.
const defaultGapsWindow = 30 * 24 * time.Hour

func newGapsCmd() *cobra.Command {
	var sinceFlag string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "gaps",
		Short: "What the corpus could not answer: struck sentences and unanswered questions grouped by policy area",
		Long: `gaps reads the rejection log: every sentence the guard struck from a draft because no
eligible policy backed it, every abstention and every question a partial answer left
open, with the reason, the ticket, the policy area and, for a question, what it asked
about (its subject). Grouped by area, most frequent first, with the reasons, the subjects
asked about most and a few of the logged sentences, it is the list of questions customers
ask that the corpus cannot answer: the shortest route to the policy documents nobody has
written yet.

A reason such as "no eligible source states 30 day" seen often in one area usually
means customers expect a term the company never wrote down. Before writing it, run
` + "`supportdraft trace`" + ` on the term: it may exist in a stale or out-of-scope document.

--since takes an RFC 3339 time, a date, or a span back from now such as 7d or 72h
(default 30d). Reads the store at DATABASE_URL.`,
		Example: `  supportdraft gaps
  supportdraft gaps --since 7d
  supportdraft gaps --since 2026-11-01 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			since, err := parseSince(sinceFlag, time.Now())
			if err != nil {
				return err
			}
			return inStore(cmd.Context(), func(s *store.Store) error {
				gaps, err := s.Gaps(cmd.Context(), since)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if asJSON {
					return writeJSON(out, map[string]any{"since": since.UTC(), "gaps": gaps})
				}
				printGaps(out, gaps, since)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&sinceFlag, "since", "", "only rejections at or after this: RFC 3339, YYYY-MM-DD, or a span such as 7d or 72h (default 30d)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"since": …, "gaps": [...]} as JSON`)
	return cmd
}

// parseSince reads --since: an instant, a date, or a span back from now ("7d", "72h").
func parseSince(value string, now time.Time) (time.Time, error) {
	if value == "" {
		return now.Add(-defaultGapsWindow), nil
	}
	if days, ok := strings.CutSuffix(value, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(value); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	t, err := parseInstant("--since", value, now)
	if err != nil {
		return t, usagef("--since %q: use an RFC 3339 time (2026-11-01T00:00:00Z), a date (2026-11-01) or a span back from now (7d, 72h)", value)
	}
	return t, nil
}

// printGaps writes the gaps for people, one block per area.
func printGaps(w io.Writer, gaps []store.Gap, since time.Time) {
	fmt.Fprintf(w, "What the corpus could not answer since %s\n", since.UTC().Format(time.RFC3339))
	if len(gaps) == 0 {
		fmt.Fprintln(w, "\nNo sentence was struck in this period.")
		return
	}
	for _, g := range gaps {
		area := g.Area
		if area == "" {
			area = "(no area)"
		}
		fmt.Fprintf(w, "\n%s: %d struck %s in %d %s, last %s\n", area, g.Count, plural(g.Count, "sentence"),
			g.Tickets, plural(g.Tickets, "ticket"), g.Last.UTC().Format("2006-01-02 15:04"))
		for _, r := range g.Reasons {
			fmt.Fprintf(w, "  %4d× %s\n", r.Count, r.Pattern)
		}
		if len(g.Subjects) > 0 {
			fmt.Fprintln(w, "  asked about, most often first:")
		}
		for _, sc := range g.Subjects {
			fmt.Fprintf(w, "  %4d× %s\n", sc.Count, sc.Subject)
		}
		for _, e := range g.Examples {
			fmt.Fprintf(w, "     e.g. %q\n", e)
		}
	}
	fmt.Fprintln(w, "\nBefore writing a missing policy, run `supportdraft trace --corpus DIR \"TERM\"`: the term may exist in a stale or out-of-scope document.")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
