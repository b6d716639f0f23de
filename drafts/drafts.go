// Package drafts holds a draft as the product understands it: the claims and their checks,
// what the draft is bound to, its confidence, and whether it has gone stale. Everything
// here is pure and deterministic, so the workflow, the API and the eval share one truth.
package drafts

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/rubric"
)

// Draft statuses.
const (
	StatusReady     = "ready"     // a draft the agent may edit and send
	StatusAbstained = "abstained" // nothing eligible answered the question; the agent writes it
	StatusStale     = "stale"     // the ticket, policy or account changed since it was built
	StatusDiscarded = "discarded" // the agent threw it away
	StatusClosed    = "closed"    // nobody touched it before the idle timeout
	StatusSent      = "sent"      // the help desk reported the reply that went out
	StatusKilled    = "killed"    // a reviewer killed it from the review queue
	// StatusFailed: the last build failed after its retries; BuildError says why. Any
	// earlier iteration is still shown, and Rebuild tries again.
	StatusFailed = "failed"
)

// Ended reports a status its draft's run ended with (discarded, closed, sent, killed):
// nothing changes that draft any more, and opening the ticket starts a new one.
func Ended(status string) bool {
	switch status {
	case StatusDiscarded, StatusClosed, StatusSent, StatusKilled:
		return true
	}
	return false
}

// Send-check verdicts.
const (
	VerdictOK        = "ok"        // current: send
	VerdictStale     = "stale"     // something changed: reasons say what; rebuild
	VerdictUnchecked = "unchecked" // the check could not run: send allowed, with a warning
	VerdictBlocked   = "blocked"   // the outbound text has unresolved placeholders
	// VerdictUnsupported: the text commits to something (a number, a refund, a promise)
	// that no source eligible now for the account backs; Unsupported lists each sentence.
	// The agent may send anyway with an override reason, kept with the verdict.
	VerdictUnsupported = "unsupported"
	// VerdictReviewPending: the draft must be reviewed (Review says why) and no reviewer
	// has approved it or overridden the gate yet.
	VerdictReviewPending = "review_pending"
)

// ReviewReason is one reason a draft must be reviewed before it is sent.
type ReviewReason struct {
	Kind    string `json:"kind"` // forced_review | low_confidence
	Message string `json:"message"`
}

// ReviewerRole is who clears the review gate: a token with the reviewer (or admin) role,
// by approving the draft or overriding the gate with a reason.
const ReviewerRole = "reviewer"

// BoundVersion is one policy version a draft relies on.
type BoundVersion struct {
	DocID   string `json:"doc_id"`
	Version int    `json:"version"`
}

// EvidenceRef is one retrieved eligible chunk, by ID, with its rank score.
type EvidenceRef struct {
	ChunkID string  `json:"chunk_id"`
	Score   float64 `json:"score"`
}

// Saved is one draft iteration as saved: everything QA needs to read its story.
type Saved struct {
	TicketID   string         `json:"ticket_id"`
	Iteration  int            `json:"iteration"`
	Revision   int            `json:"revision"`
	Status     string         `json:"status"`
	EligibleAt time.Time      `json:"eligible_at"`
	Account    policy.Account `json:"account"`
	Reply      string         `json:"reply"`
	ModelReply string         `json:"model_reply"`
	Abstained  bool           `json:"abstained"`
	Note       string         `json:"note,omitempty"`
	// Unanswered is the writer's account of what no eligible policy answers (llm.Answer's):
	// written to the rejection log with the draft, for gaps; not kept on the draft row.
	Unanswered []llm.Unanswered `json:"unanswered,omitempty"`
	// BuildError is set, with Status failed, when the ticket's last build failed: it is
	// read from build_failures, never saved with an iteration.
	BuildError   string                 `json:"build_error,omitempty"`
	Claims       []ClaimCheck           `json:"claims"`
	Sentences    []guard.SentenceResult `json:"sentences"`
	Bound        []BoundVersion         `json:"bound"`
	Evidence     []EvidenceRef          `json:"evidence"`
	Scores       llm.Scores             `json:"scores"`
	Unsupported  int                    `json:"unsupported"`
	Confidence   float64                `json:"confidence"`
	EditedText   string                 `json:"edited_text,omitempty"`
	StaleReasons []StaleReason          `json:"stale_reasons"`
	CreatedAt    time.Time              `json:"created_at"`
	// Rubric is the reply's draft-quality score per criterion; nil on drafts saved before
	// the rubric existed.
	Rubric *rubric.Result `json:"rubric,omitempty"`
	// Category and Reasoning are the writer's (llm.Answer's): the triage bucket it filed
	// the question under and why it quoted what it quoted, or abstained.
	Category  string `json:"category,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	// Signals are the writer's answerability signals (llm.Answer's): the eval reports them
	// so the answerability model can be refitted; not kept on the draft row.
	Signals map[string]float64 `json:"signals,omitempty"`
}

// Summary is the part of a Saved iteration the workflow keeps in its state: small, no text.
type Summary struct {
	Iteration  int            `json:"iteration"`
	Revision   int            `json:"revision"`
	Status     string         `json:"status"`
	Plan       string         `json:"plan"`
	Region     string         `json:"region"`
	Bound      []BoundVersion `json:"bound"`
	Confidence float64        `json:"confidence"`
	Struck     int            `json:"struck"`
}

// Summarize keeps what the workflow needs from a saved record.
func (r *Saved) Summarize() *Summary {
	struck := 0
	for _, s := range r.Sentences {
		if !s.Kept {
			struck++
		}
	}
	return &Summary{Iteration: r.Iteration, Revision: r.Revision, Status: r.Status,
		Plan: r.Account.Plan, Region: r.Account.Region, Bound: r.Bound, Confidence: r.Confidence, Struck: struck}
}

// TextRef names an agent's text (an edit, a text given to the send hook) kept in
// Postgres: workflow updates and activities carry it instead of the words, so Temporal
// history never holds them. Whoever reads the text by ID checks it against SHA256.
type TextRef struct {
	ID     int64  `json:"id"`
	SHA256 string `json:"sha256"` // TextSHA256 of the text
}

// TextSHA256 is the hex SHA-256 of text exactly as typed.
func TextSHA256(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// SendCheck is the answer to the send hook.
type SendCheck struct {
	Verdict      string        `json:"verdict"`
	Reasons      []StaleReason `json:"reasons,omitempty"`
	Warning      string        `json:"warning,omitempty"`
	Placeholders []string      `json:"placeholders,omitempty"`
	// Unsupported lists the commitment sentences of the text no eligible source backs.
	Unsupported []Unbacked `json:"unsupported,omitempty"`
	// OverrideReason is the agent's reason for sending despite Unsupported.
	OverrideReason string `json:"override_reason,omitempty"`
	// Review says why the draft must be reviewed (review_pending), and MustAct who clears
	// the gate.
	Review    []ReviewReason `json:"review,omitempty"`
	MustAct   string         `json:"must_act,omitempty"`
	Iteration int            `json:"iteration"`
	// Cause says why an unchecked verdict was unchecked: check_failed (the draft, the
	// ticket or the versions in force could not be read from the store) or guard_failed
	// (the text could not be read against the eligible policy). Verdicts
	// recorded before the send hook stopped waiting for Temporal may also say
	// temporal_unreachable.
	Cause string `json:"cause,omitempty"`
	// TextID is the agent_texts row of the text that was checked; 0 when the text could
	// not be kept (Postgres down).
	TextID int64 `json:"text_id,omitempty"`
}

// UnguardedWarning is shown when the guard could not read the text against policy.
const UnguardedWarning = "The policy check is unavailable right now: this text was NOT checked for commitments no policy backs. Read it carefully before sending."

// UncheckedWarning is shown to the agent when the check could not run. Blocking every
// reply because the checker is down is worse than one unchecked draft, so the send goes
// ahead, visibly.
const UncheckedWarning = "The freshness check is unavailable right now: this draft was NOT checked against the latest ticket and policy. Read it carefully before sending."
