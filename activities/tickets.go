package activities

import (
	"context"
	"sync"
	"time"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/ticket"
)

// TicketRef names one ticket revision: activities load the text themselves, so histories
// never hold ticket bodies.
type TicketRef struct {
	TicketID string `json:"ticket_id"`
	Revision int    `json:"revision"`
}

// TicketFacts is what LoadContext returns: the instant and the account fields a draft is
// bound to. Plan, region and locale are all the model will ever know about the account.
type TicketFacts struct {
	At      time.Time      `json:"at"`
	Account policy.Account `json:"account"`
	// InputNote is set when the ticket is longer than the drafter reads (llm.DefaultLimits):
	// it says how much was read, and goes on the draft for the agent.
	InputNote string `json:"input_note,omitempty"`
}

// LoadContext reads the ticket revision a build works on and decides the eligibility
// instant: now for live drafting, the ticket's own time when replaying. The revision stays
// in this worker for the build's later steps (retrieve, generate, score).
func (a *Activities) LoadContext(ctx context.Context, ref TicketRef, replay bool) (*TicketFacts, error) {
	t, err := a.Store.Ticket(ctx, ref.TicketID, ref.Revision)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	a.tickets.put(ref, t)
	at := time.Now().UTC()
	if replay {
		at = t.UpdatedAt
	}
	note := llm.RequestFromTicket(t, nil).Truncation.Note()
	return &TicketFacts{At: at, Account: t.Account.Eligibility(), InputNote: note}, nil
}

// ticket is the revision LoadContext read, or, for a step that runs in another worker than
// LoadContext did (a remote model's activity taken by another process), the store's copy.
func (a *Activities) ticket(ctx context.Context, ref TicketRef) (*ticket.Ticket, error) {
	if t, ok := a.tickets.get(ref); ok {
		return t, nil
	}
	t, err := a.Store.Ticket(ctx, ref.TicketID, ref.Revision)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	return t, nil
}

// ticketCacheSize bounds the revisions one worker keeps: builds in flight at once, with
// room to spare for builds that failed before their last step let go of theirs.
const ticketCacheSize = 512

// ticketCache keeps the revisions of the builds in flight in this worker, so that a build
// reads its ticket from Postgres once rather than in each step. A saved revision never
// changes (store.SaveTicket ignores a second save of the same number), so a kept copy is
// never stale. The oldest entry goes first when full; Score, a build's last reader, lets
// go of its own.
type ticketCache struct {
	mu    sync.Mutex
	byRef map[TicketRef]*ticket.Ticket
	order []TicketRef
}

func (c *ticketCache) put(ref TicketRef, t *ticket.Ticket) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byRef == nil {
		c.byRef = map[TicketRef]*ticket.Ticket{}
	}
	if _, ok := c.byRef[ref]; !ok {
		c.order = append(c.order, ref)
	}
	c.byRef[ref] = t
	for len(c.order) > ticketCacheSize {
		delete(c.byRef, c.order[0])
		c.order = c.order[1:]
	}
}

func (c *ticketCache) get(ref TicketRef) (*ticket.Ticket, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.byRef[ref]
	return t, ok
}

func (c *ticketCache) forget(ref TicketRef) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.byRef, ref)
	for i, r := range c.order {
		if r == ref {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
}
