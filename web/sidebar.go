package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/text"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// sidebarView is the agent's sidebar for one ticket: the actions and the editor first,
// then what the agent needs to trust the draft, then the diagnostics, collapsed.
type sidebarView struct {
	TicketID string
	Draft    *drafts.Saved // nil while the first draft is being built
	State    chip          // the one chip that says what the agent can do with this draft
	Question string        // the customer's latest message
	Editor   string        // the text the editor starts with
	Cites    []citeView
	Struck   []struckView
	Bound    []boundView
	Stale    bool
	Ended    bool // killed, discarded, closed or sent: only a new draft can follow
	Review   *store.ReviewDecision
	Halted   store.KillSwitch
	Raw      float64 // confidence before the cap
	Cap      string  // what the confidence says and why, in words
	Earlier  *earlierEdit
	Origins  string // the help desk's origins for Insert, space-separated
	// HistoryURL links the workflow's history in the Temporal UI: for admins only.
	HistoryURL string
}

// chip is a draft's state in a word or two, with the sentence that explains it.
type chip struct {
	Label  string `json:"label"`
	Class  string `json:"class"` // the verdict colour: ok, stale, unsupported, blocked, unchecked
	Detail string `json:"detail"`
}

// citeView is one claim's citation: the sentence it backs, the document, its version, the
// section and the verbatim quote, with the judge's verdict and reasoning.
type citeView struct {
	Sentence  string
	ChunkID   string
	Title     string
	Version   int
	Heading   string
	Quote     string
	Verdict   string
	Reasoning string
}

// struckView is a sentence the guard took out of the draft, with why in plain words and
// the guard's own reason for the details toggle.
type struckView struct {
	Text, Why, Raw string
	// Policy is what the sources the drafter cited for the sentence actually say: the
	// quotes of its claims, so the agent sees the policy beside the strike.
	Policy []string
}

type boundView struct {
	DocID   string
	Version int
	Title   string
}

// earlierEdit is what the agent may want from the iteration before this one: a rebuild
// starts from policy again, so the agent's own edit of it is kept beside the new draft as
// its own version, with what changed between the two drafts.
type earlierEdit struct {
	Iteration int
	Text      string   // the agent's edit of it; "" when there was none
	Added     []string // sentences of this draft the last one did not have
	Removed   []string // sentences of the last draft this one dropped
}

func (p *Pages) sidebar(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("ticket")
	who, _ := auth.From(c)
	// The draft, the kill switch and the review entry do not depend on each other: they
	// are read at once, and then the ticket, the cited chunks and the iteration before
	// (which need the draft), so the page waits for two rounds of reads, not one read
	// after another.
	var (
		r      *drafts.Saved
		halted store.KillSwitch
		rv     *store.ReviewDecision
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { r, err = p.Store.LatestIteration(gctx, id); return found(err) })
	g.Go(func() (err error) { halted, err = p.Store.KillSwitchState(gctx); return err })
	g.Go(func() (err error) { rv, err = p.Store.ReviewOf(gctx, id); return found(err) })
	if err := g.Wait(); err != nil {
		return err
	}
	if r == nil {
		// The first draft is being built, or the help desk has not opened the ticket yet:
		// the page waits for it (app.js polls the state) instead of a dead end.
		state := chip{"drafting…", "unchecked", "The first draft for this ticket is being written. It appears here on its own."}
		if halted.Halted {
			state = chip{"paused", "blocked", "Drafting is paused by an admin."}
		}
		return p.render(c, http.StatusOK, "sidebar", "Drafting "+id, sidebarView{TicketID: id, Halted: halted, State: state})
	}
	v := sidebarView{TicketID: id, Draft: r, Stale: r.Status == drafts.StatusStale, Editor: r.Reply, Halted: halted,
		Raw: drafts.Confidence(r.Scores, 0), Ended: drafts.Ended(r.Status), Review: rv}
	if r.EditedText != "" {
		v.Editor = r.EditedText
	}
	g, gctx = errgroup.WithContext(ctx)
	g.Go(func() error {
		t, err := p.Store.Ticket(gctx, id, r.Revision)
		for _, m := range slices.Backward(ticketMessages(t)) {
			if m.Author == "customer" {
				v.Question = m.Body
				break
			}
		}
		return found(err)
	})
	g.Go(func() error { return p.citations(gctx, r, &v) })
	if r.Iteration > 1 && !v.Ended {
		g.Go(func() error {
			prev, err := p.Store.Iteration(gctx, id, r.Iteration-1)
			if prev != nil {
				v.Earlier = earlier(prev, r, v.Editor)
			}
			return found(err)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	v.State, v.Cap = draftState(r, v.Review), confidenceWords(r)
	v.Origins = strings.Join(p.HelpdeskOrigins, " ")
	if wid, err := workflows.DraftWorkflowIDFor(ctx, id); err == nil && p.TemporalUI != "" && who.Role == auth.Admin {
		v.HistoryURL = p.TemporalUI + "/workflows/" + url.PathEscape(wid) // a session acting for several agents names none: no link
	}
	return p.render(c, http.StatusOK, "sidebar", "Draft for "+id, v)
}

// found is err, except that a row that is not there is no error: the page shows its absence.
func found(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// ticketMessages is the thread of a stored ticket revision, none when it is not stored.
func ticketMessages(t *ticket.Ticket) []ticket.Message {
	if t == nil {
		return nil
	}
	return t.Messages
}

// earlier is what the sidebar keeps of the iteration before r: the agent's edit of it,
// unless the editor holds it already, and what changed between the two drafts; nil when
// there is neither.
func earlier(prev, r *drafts.Saved, editor string) *earlierEdit {
	e := &earlierEdit{Iteration: prev.Iteration}
	if prev.EditedText != editor {
		e.Text = prev.EditedText
	}
	e.Added, e.Removed = sentenceDiff(prev.Reply, r.Reply)
	if e.Text == "" && len(e.Added)+len(e.Removed) == 0 {
		return nil
	}
	return e
}

// citations fills the citations, strikes and bound versions of the view from the chunks
// the draft cites.
func (p *Pages) citations(ctx context.Context, r *drafts.Saved, v *sidebarView) error {
	var ids []string
	for _, cl := range r.Claims {
		ids = append(ids, cl.ChunkIDs...)
	}
	for _, e := range r.Evidence {
		ids = append(ids, e.ChunkID) // bound versions are among the evidence: their titles come from it
	}
	chunks, err := p.Store.ChunkInfos(ctx, ids)
	if err != nil {
		return err
	}
	for _, s := range r.Sentences {
		if !s.Kept {
			sv := struckView{Text: s.Text, Why: plainReason(s.Reason), Raw: s.Reason}
			for _, cl := range attached(s.Text, r.Claims) {
				if cl.Quote != "" && !slices.Contains(sv.Policy, cl.Quote) {
					sv.Policy = append(sv.Policy, cl.Quote)
				}
			}
			v.Struck = append(v.Struck, sv)
			continue
		}
		for _, cl := range attached(s.Text, r.Claims) {
			for _, cid := range cl.ChunkIDs {
				ch := chunks[cid]
				v.Cites = append(v.Cites, citeView{Sentence: s.Text, ChunkID: cid, Title: ch.Title, Version: ch.Version,
					Heading: ch.Heading, Quote: cl.Quote, Verdict: string(cl.Verdict), Reasoning: cl.Reasoning})
			}
		}
	}
	titles := map[drafts.BoundVersion]string{}
	for _, ch := range chunks {
		titles[drafts.BoundVersion{DocID: ch.DocID, Version: ch.Version}] = ch.Title
	}
	for _, b := range r.Bound {
		v.Bound = append(v.Bound, boundView{DocID: b.DocID, Version: b.Version, Title: titles[b]})
	}
	return nil
}

// lowConfidence is the queue's mark when the draft is the queued iteration (its agent's
// threshold decided it), else the default threshold.
func lowConfidence(r *drafts.Saved, rv *store.ReviewDecision) bool {
	if rv != nil && rv.Iteration == r.Iteration {
		return rv.LowConfidence
	}
	return r.Confidence < review.LowConfidence
}

// draftState is the chip for a draft: its ending first (with who ended it), then a
// reviewer's pull-back, then staleness, abstention and a failed build, then confidence
// against the review threshold, so a weak draft never wears "ready".
func draftState(r *drafts.Saved, rv *store.ReviewDecision) chip {
	by := func(verb string) string {
		if rv == nil || rv.DecidedBy == "" {
			return verb
		}
		s := verb + " by " + rv.DecidedBy
		if rv.Reason != "" {
			s += ": " + rv.Reason
		}
		return s
	}
	switch {
	case r.Status == drafts.StatusKilled:
		return chip{"killed", "blocked", by("Killed") + ". This draft cannot be sent; start a new draft or write the reply yourself."}
	case r.Status == drafts.StatusSent:
		return chip{"sent", "ok", "The help desk reported this reply as sent."}
	case r.Status == drafts.StatusDiscarded:
		return chip{"discarded", "unchecked", "This draft was thrown away. Start a new draft or write the reply yourself."}
	case r.Status == drafts.StatusClosed:
		return chip{"closed", "unchecked", "Nobody worked on this draft for a long time, so it was closed. Start a new draft to continue."}
	case rv != nil && rv.State == review.Pulled && rv.Iteration == r.Iteration:
		return chip{"pulled back", "stale", by("Pulled back") + ". Edit the reply, then send it yourself."}
	case r.Status == drafts.StatusStale:
		return chip{"out of date", "stale", "Something changed since this draft was written. Rebuild it before sending."}
	case r.BuildError != "" && r.Iteration == 0:
		return chip{"no draft", "unsupported", "The draft could not be written. Write the reply yourself, or try Rebuild."}
	case r.BuildError != "":
		return chip{"rebuild failed", "stale", "The last rebuild failed; this is the draft before it."}
	case r.Abstained:
		return chip{"no policy answer", "unchecked", "No policy in force answers this question. Write the reply yourself."}
	case lowConfidence(r, rv):
		return chip{"low confidence", "unsupported", "Read every sentence against its source before sending."}
	}
	return chip{"ready", "ok", "Every sentence is backed by policy in force. Read it, then send."}
}

// confidenceWords says what the confidence figure rests on.
func confidenceWords(r *drafts.Saved) string {
	switch {
	case r.Abstained:
		return "no claims: the draft abstained"
	case r.Unsupported == 1:
		return "capped at 0.50: one claim is not supported by its source"
	case r.Unsupported > 1:
		return "capped at 0.30: several claims are not supported by their sources"
	}
	return "every claim is supported by its source"
}

// plainReason says why the guard took a sentence out, in words for an agent; the guard's
// own reason, which may name chunks, goes in the page's details toggle.
func plainReason(reason string) string {
	switch {
	case reason == "not backed by a claim":
		return "The draft cites no policy for this sentence."
	case strings.HasPrefix(reason, "unresolved placeholder"):
		return "It still has a placeholder to fill in."
	case strings.HasPrefix(reason, "says the opposite of"):
		return "Policy in force says the opposite."
	case strings.HasPrefix(reason, "it says this of all"):
		return "Policy in force says this only of some customers or plans."
	case strings.HasPrefix(reason, "it says this holds at any time"):
		return "Policy in force limits when or how often this applies."
	case strings.HasPrefix(reason, "it reverses before and after"):
		return "Policy in force says it happens the other way round (before, not after)."
	case strings.HasPrefix(reason, "says of ") && strings.Contains(reason, " says of others"):
		return "Policy in force says this of another plan or customer."
	case strings.Contains(reason, "eligible source"):
		return "No policy in force for this account says this."
	}
	return "Its cited policy does not say this."
}

// sentenceDiff is which sentences after has that before lacks, and the reverse.
func sentenceDiff(before, after string) (added, removed []string) {
	set := func(s string) map[string]string {
		out := map[string]string{}
		for _, x := range text.Split(s) {
			out[normalise(x.Text)] = x.Text
		}
		return out
	}
	b, a := set(before), set(after)
	for _, x := range text.Split(after) {
		if _, ok := b[normalise(x.Text)]; !ok {
			added = append(added, x.Text)
		}
	}
	for _, x := range text.Split(before) {
		if _, ok := a[normalise(x.Text)]; !ok {
			removed = append(removed, x.Text)
		}
	}
	return added, removed
}

// attached returns the claims made about a sentence: those whose sentence equals it or is
// contained in it after normalising case, spaces and end punctuation, or that contain it
// when it is a real sentence (four words or more: a greeting such as "Hi," is inside
// every claim that says "within").
func attached(sentence string, claims []drafts.ClaimCheck) []drafts.ClaimCheck {
	s := normalise(sentence)
	if s == "" {
		return nil
	}
	var out []drafts.ClaimCheck
	for _, c := range claims {
		cs := normalise(c.Sentence)
		if cs != "" && (strings.Contains(s, cs) || len(strings.Fields(s)) >= 4 && strings.Contains(cs, s)) {
			out = append(out, c)
		}
	}
	return out
}

func normalise(s string) string {
	return strings.TrimRightFunc(text.Fold(s), func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}
