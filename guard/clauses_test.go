package guard

import (
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// A sentence joining two statements of one section is backed clause by clause; one
// joining statements of two sections, or adding a clause no section states, is struck.
// Sources from the practice corpus (written outside the team), with their titles.
func TestCheckBacksAJoinedSentenceClauseByClauseInOneSection(t *testing.T) {
	t.Parallel()
	requireKept(t, []policy.Evidence{
		{ChunkID: "monthly", Title: "Refunds", Text: "Monthly plans\nMonthly plans are not refunded. Cancelling stops the next charge, and the plan stays active until the end of the month already paid."},
		{ChunkID: "seats", Title: "Seats", Text: "Removing seats\nRemoved seats are credited by the day to the account balance."},
		{ChunkID: "failed", Title: "Failed payments", Text: "What happens to the account\nAfter 21 days without payment the workspace is suspended."},
		{ChunkID: "quotas", Title: "Storage quotas and overage", Text: "Quotas\nSolo includes 500 GB. Team includes 2 TB per workspace. Enterprise storage is set in the order form."},
	}, map[string]bool{
		"Monthly plans aren't refunded, but cancelling stops the next charge.":                                 true,
		"Solo includes 500 GB of storage, and Team includes 2 TB per workspace.":                               true,
		"Removed seats are credited by the day, and after 21 days without payment the workspace is suspended.": false,
		"Monthly plans aren't refunded, but cancelling refunds the last charge.":                               false,
		"Monthly plans aren't refunded, and Team includes 4 TB per workspace.":                                 false,
	})
}

// The words of a source's title and heading name what each of its units is about: "Every
// Team workspace includes 2 TB of storage" restates "Team includes 2 TB per workspace" in
// a section titled "Storage quotas", but not in one titled "Backups".
func TestEligibilityMayTakeWordsFromTheTitle(t *testing.T) {
	t.Parallel()
	for title, kept := range map[string]bool{"Storage quotas and overage": true, "Backups": false} {
		requireKept(t, []policy.Evidence{
			{ChunkID: "quotas", Title: title, Text: "Quotas\nSolo includes 500 GB. Team includes 2 TB per workspace."},
			{ChunkID: "packs", Title: "Storage packs", Text: "A storage pack adds 1 TB for $15 per month on Solo or Team."},
		}, map[string]bool{"Every Team workspace includes 2 TB of storage.": kept})
	}
}

// A commercial verb said only as a condition needs its source to name it, not the unit
// that states the rest.
func TestConditionVerbsNeedTheSourceNotTheUnit(t *testing.T) {
	t.Parallel()
	cancel := policy.Evidence{ChunkID: "cancel", Title: "Cancelling your plan", Text: "Your backups after cancelling\nBackups are kept for 30 days after the plan ends."}
	hardware := policy.Evidence{ChunkID: "hardware", Title: "Hardware", Text: "Unused hardware can be returned within 30 days of delivery."}
	requireKept(t, []policy.Evidence{cancel, hardware}, map[string]bool{
		"After cancelling, your backups are kept for 30 days after the plan ends.": true,
		"Your backups are kept for 30 days after you cancel.":                      true,
		"After you cancel, we refund the hardware within 30 days.":                 false,
		"If you downgrade, backups are kept for 30 days.":                          false,
	})
	// Excused from its unit, the condition no longer ties the number to it: the unit
	// stating the number must name something else the sentence names.
	requireKept(t, []policy.Evidence{{ChunkID: "overage", Title: "Billing FAQ", Text: "What happens if I exceed my pageview limit?\n" +
		"A single month over your limit requires no action. If you don't upgrade within a week, your dashboards are temporarily locked."}}, map[string]bool{
		"If you don't upgrade within a week, your dashboards are locked.":  true,
		"If you don't upgrade within a month, your dashboards are locked.": false,
	})
}
