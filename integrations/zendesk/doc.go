// Package zendesk connects supportdraft to Zendesk Support: the ticket-sidebar app (its
// manifest, how it is packaged, the ZAF JWT that opens an agent's session and the page and
// script it frames), the ticket events Zendesk posts (signature, event, mapping of a
// Zendesk ticket to the ticket contract) and the Tickets API client that writes an
// approved draft back as an internal note.
//
// The JSON shapes relied on are recorded in testdata/, each file naming the Zendesk
// documentation page it follows.
package zendesk
