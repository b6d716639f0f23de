package inbox

// Decisions: what the funnel does with a message.
const (
	// DecisionDraft starts (or joins) the ticket's draft workflow.
	DecisionDraft = "draft"
	// DecisionReview drafts too, but the draft is forced to a person's review.
	DecisionReview = "review"
	// DecisionSkip drafts nothing; the message stays with the people in the help desk.
	DecisionSkip = "skip"
)

// Stages, in the order the funnel runs them. A decision names the stage that decided it,
// or StageNone when a message passed every stage and is drafted as it is.
const (
	StageDuplicate  = "duplicate"   // the same message ID was seen before
	StageKillSwitch = "kill_switch" // drafting is halted
	StageNotFirst   = "not_first"   // an agent already replied on the thread: it is the rep's
	StageAutomated  = "automated"   // auto-replies, bounces, newsletters, no-reply senders
	StageRulesBlock = "rules_block" // a block rule matched
	StageRules      = "rules"       // a review rule matched (drafted, forced to review)
	StageRecipients = "recipients"  // support only in cc or bcc (drafted, forced to review)
	StageNoResponse = "no_response" // triage: nothing to answer (thanks, FYI)
	StageNotBilling = "not_billing" // triage: not a billing question, routed to people
	StageUnsure     = "unsure"      // the funnel cannot tell: list mail that asks, or triage and policy disagree (drafted, forced to review)
	StageNone       = "none"
)

// The default agent's (billing's) buckets, named for the code and tests that speak of
// them; the set itself is data (buckets/billing.yaml, BucketSet). BucketNotBilling is
// every agent's: not the agent's topic, left to people.
const (
	BucketRefunds          = "refunds"
	BucketCancellation     = "cancellation"
	BucketPlanChange       = "plan_change"
	BucketPaymentFailed    = "payment_failed"
	BucketInvoiceTax       = "invoice_tax"
	BucketPricingDiscounts = "pricing_discounts"
	BucketAccountData      = "account_data"
	BucketNotBilling       = "not_billing"
)

// Decision is the funnel's answer for one message: what happens, which stage decided it,
// the triage bucket when triage ran, and why in words. It carries no message text.
type Decision struct {
	MessageID string `json:"message_id"`
	Decision  string `json:"decision"`
	Stage     string `json:"stage"`
	Bucket    string `json:"bucket,omitempty"`
	Reason    string `json:"reason"`
}
