package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/text"
	"github.com/supportdraft/supportdraft/workflows"
)

// sidebarView is the agent's sidebar for one ticket.
type sidebarView struct {
	Draft      *drafts.Saved
	Sentences  []sentenceView
	Bound      []boundView
	Stale      bool
	Raw        float64 // confidence before the cap
	Cap        string  // why the confidence is capped, "" if it is not
	Editor     string  // the text the editor starts with
	HistoryURL string
}

// sentenceView is one sentence of the drafter's reply where it stood: kept with its
// citations, or struck with the guard's reason.
type sentenceView struct {
	Text   string
	Kept   bool
	Reason string
	Cites  []citeView
}

// citeView is one claim's citation: the document, its version, the section and the
// verbatim quote, with the judge's verdict and reasoning.
type citeView struct {
	ChunkID   string
	Title     string
	Version   int
	Heading   string
	Quote     string
	Verdict   string
	Reasoning string
	Failure   string
}

type boundView struct {
	DocID   string
	Version int
	Title   string
}

func (p *Pages) sidebar(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("ticket")
	r, err := p.Store.LatestIteration(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return p.Error(c, http.StatusNotFound, "No draft for ticket "+id+" yet: the help desk opens one when the sidebar loads the ticket (POST /v1/drafts).")
	}
	if err != nil {
		return err
	}
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
	v := sidebarView{Draft: r, Stale: r.Status == drafts.StatusStale, Editor: r.Reply, Raw: drafts.Confidence(r.Scores, 0)}
	if r.EditedText != "" {
		v.Editor = r.EditedText
	}
	switch {
	case r.Unsupported == 1:
		v.Cap = "capped at 0.50: one claim is unsupported"
	case r.Unsupported > 1:
		v.Cap = "capped at 0.30: " + strconv.Itoa(r.Unsupported) + " claims are unsupported"
	}
	for _, s := range r.Sentences {
		sv := sentenceView{Text: s.Text, Kept: s.Kept, Reason: s.Reason}
		for _, cl := range attached(s.Text, r.Claims) {
			for _, cid := range cl.ChunkIDs {
				ch := chunks[cid]
				sv.Cites = append(sv.Cites, citeView{ChunkID: cid, Title: ch.Title, Version: ch.Version, Heading: ch.Heading,
					Quote: cl.Quote, Verdict: string(cl.Verdict), Reasoning: cl.Reasoning, Failure: cl.Failure})
			}
		}
		v.Sentences = append(v.Sentences, sv)
	}
	titles := map[drafts.BoundVersion]string{}
	for _, ch := range chunks {
		titles[drafts.BoundVersion{DocID: ch.DocID, Version: ch.Version}] = ch.Title
	}
	for _, b := range r.Bound {
		v.Bound = append(v.Bound, boundView{DocID: b.DocID, Version: b.Version, Title: titles[b]})
	}
	if p.TemporalUI != "" {
		v.HistoryURL = p.TemporalUI + "/workflows/" + url.PathEscape(workflows.DraftWorkflowID(id))
	}
	return p.render(c, http.StatusOK, "sidebar", "Draft for "+id, v)
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
