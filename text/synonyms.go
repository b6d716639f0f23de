package text

import "strings"

// The billing vocabulary: the everyday ways customers name a billing concept, read as the
// word policies use for it ("money back" is a refund, a declined card a failed payment, a
// charity a nonprofit). ContentStems applies it, so the drafter, the judge and the guard
// all read "users" and "seats" as one topic. It is general English billing usage, not the
// wording of any one corpus, and short on purpose: each entry is a lexical rule someone
// can read, not a thesaurus. German words go through the glossary first.

// phrases rewrite multi-word expressions before the text is cut into words.
var phrases = strings.NewReplacer(
	"money back", "refund",
	"charged back", "chargeback",
	"run out", "expire", "runs out", "expires", "ran out", "expired", "running out", "expiring",
	"charged twice", "duplicate charge", "double charged", "duplicate charge",
	"double charge", "duplicate charge", "paid twice", "duplicate payment",
	"missed payment", "failed payment", "missed a payment", "failed a payment",
	"missed the payment", "failed the payment",
	"not-for-profit", "nonprofit", "not for profit", "nonprofit", "non-profit", "nonprofit",
	"non profit", "nonprofit",
	"close my account", "cancel my account", "close our account", "cancel our account",
	"close the account", "cancel the account",
	"on top of", "combined with",
)

// synonyms map a word's stem onto the stem of the policy word for the same concept.
var synonyms = func() map[string]string {
	out := map[string]string{}
	for canonical, words := range map[string][]string{
		"refund":    {"reimburse", "reimbursed", "reimbursement", "repay", "repaid", "repayment"},
		"invoice":   {"receipt", "receipts"},
		"cancel":    {"terminate", "terminated", "termination", "unsubscribe"},
		"suspend":   {"suspension", "suspensions", "lock", "locked", "lockout", "blocked", "frozen", "deactivated"},
		"restore":   {"unlock", "unlocked", "reactivate", "reactivated", "reinstate", "reinstated", "unblock", "unblocked"},
		"failed":    {"declined", "decline", "bounced", "bounce"},
		"expire":    {"expiry", "expiration", "lapse", "lapsed"},
		"nonprofit": {"charity", "charities", "ngo", "ngos", "nonprofits"},
		"seat":      {"user", "users", "licence", "licences", "license", "licenses"},
		"remove":    {"delete", "deleted", "deleting", "deletion"},
		"change":    {"switch", "switched", "switching"},
		"annual":    {"yearly", "annually"},
		"combine":   {"stack", "stacked", "stacking", "stackable"},
		"extend":    {"extension", "extensions"},
	} {
		for _, w := range words {
			out[Stem(w)] = Stem(canonical)
		}
	}
	return out
}()
