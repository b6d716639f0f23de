package inbox

import (
	"fmt"
	"net/mail"
	"path"
	"strings"
)

// DefaultSupportAddresses are the globs used when SUPPORTDRAFT_SUPPORT_ADDRESSES is not
// set: the local parts help desks use for billing mail, on any domain.
var DefaultSupportAddresses = []string{"billing@*", "support@*", "help@*"}

// Support is the set of the help desk's own addresses (exact addresses or globs).
type Support struct {
	globs []string
}

// NewSupport checks and lower-cases the addresses; a bad glob is an error naming it.
func NewSupport(addresses []string) (*Support, error) {
	s := &Support{}
	for _, a := range addresses {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "" {
			continue
		}
		if _, err := path.Match(a, ""); err != nil || !strings.Contains(a, "@") {
			return nil, fmt.Errorf("support address %q: use an address or a glob such as billing@*", a)
		}
		s.globs = append(s.globs, a)
	}
	if len(s.globs) == 0 {
		return nil, fmt.Errorf("no support addresses: name at least one, such as billing@company.example")
	}
	return s, nil
}

// Union is the addresses of s and o together; either may be nil.
func (s *Support) Union(o *Support) *Support {
	switch {
	case s == nil:
		return o
	case o == nil:
		return s
	}
	return &Support{globs: append(append([]string(nil), s.globs...), o.globs...)}
}

// Is reports whether addr ("x@y", "Name <x@y>", or "x+tag@y") is one of ours.
func (s *Support) Is(addr string) bool {
	a := normalAddress(addr)
	for _, g := range s.globs {
		if ok, _ := path.Match(g, a); ok {
			return true
		}
	}
	return false
}

// normalAddress is the bare, lower-case address with any +tag removed from the local part.
func normalAddress(addr string) string {
	addr = strings.TrimSpace(addr)
	if a, err := mail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	addr = strings.ToLower(addr)
	if at := strings.LastIndex(addr, "@"); at > 0 {
		if plus := strings.Index(addr[:at], "+"); plus > 0 {
			addr = addr[:plus] + addr[at:]
		}
	}
	return addr
}

// Recipients is how support was addressed.
type Recipients struct {
	// Ambiguous is true when support was not a direct recipient: copied, blind-copied, or
	// reached another way (an alias, a forward). Such mail is drafted but forced to review.
	Ambiguous bool
	Reason    string
}

// Classify says whether support is the primary recipient. Support in To is primary,
// whoever else is copied; support only in Cc is copied on someone else's conversation;
// support only in Bcc, or in no header at all (it arrived by blind copy), is ambiguous too.
func (s *Support) Classify(m *Message) Recipients {
	in := func(list []string) bool {
		for _, a := range list {
			if s.Is(a) {
				return true
			}
		}
		return false
	}
	switch {
	case in(m.To):
		if others := len(m.Cc); others > 0 {
			return Recipients{Reason: fmt.Sprintf("support is a direct recipient; %d copied", others)}
		}
		return Recipients{Reason: "support is a direct recipient"}
	case in(m.Cc):
		return Recipients{Ambiguous: true, Reason: "support is only copied (cc): the mail is addressed to someone else"}
	case in(m.Bcc):
		return Recipients{Ambiguous: true, Reason: "support is blind-copied (bcc)"}
	default:
		return Recipients{Ambiguous: true, Reason: "support is in neither to nor cc: it arrived by blind copy or a forward"}
	}
}
