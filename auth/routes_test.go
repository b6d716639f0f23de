package auth

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The product's access policy, written out route by route: the table must say exactly
// this. (api's tests check that the middleware enforces the table on every route.)
func TestRouteTableIsThePolicy(t *testing.T) {
	const (
		agents   = "agent reviewer admin"
		hook     = "helpdesk"
		sendHook = "agent reviewer admin helpdesk"
		admins   = "admin"
		review   = "reviewer admin"
	)
	want := map[string]string{
		"GET /metrics":                       admins,
		"POST /codec/decode":                 "reviewer admin",
		"POST /codec/encode":                 "reviewer admin",
		"POST /v1/drafts":                    sendHook,
		"GET /v1/drafts/:ticket":             agents,
		"GET /v1/drafts/:ticket/history":     agents,
		"POST /v1/drafts/:ticket/edit":       agents,
		"POST /v1/drafts/:ticket/rebuild":    agents,
		"POST /v1/drafts/:ticket/discard":    agents,
		"POST /v1/drafts/:ticket/reopen":     agents,
		"POST /v1/drafts/:ticket/send-check": sendHook,
		"POST /v1/tickets/:ticket/revisions": hook,
		"POST /v1/inbox/messages":            hook,
		"POST /v1/inbox/raw":                 hook,
		"GET /v1/admin/killswitch":           admins,
		"POST /v1/admin/killswitch":          admins,
		"GET /app/":                          agents,
		"GET /app/tickets/:ticket":           agents,
		"GET /app/tickets/:ticket/state":     agents,
		"GET /app/admin":                     admins,
		"GET /app/review":                    review,
		"POST /v1/drafts/:ticket/sent":       hook,
		"GET /v1/review/queue":               review,
		"POST /v1/drafts/:ticket/approve":    review,
		"POST /v1/drafts/:ticket/pull":       review,
		"POST /v1/drafts/:ticket/kill":       review,
		"POST /v1/drafts/:ticket/override":   review,
		"POST /v1/drafts/:ticket/assign":     review,
		"POST /v1/sign-in-links":             agents,
	}
	// Public to the authorizer because Zendesk cannot send our credentials: the events carry
	// Zendesk's webhook signature and the sidebar's first load its app JWT, each verified
	// by the handler (api/zendesk.go); the sidebar's assets carry no data.
	zendeskVerified := []string{"POST /v1/zendesk/events", "POST /app/zendesk/sidebar", "GET /app/zendesk/assets/*"}
	for key, access := range routes {
		if access.Public && slices.Contains(zendeskVerified, key) {
			continue
		}
		if access.Public {
			assert.Contains(t, []string{"GET /healthz", "GET /readyz", "OPTIONS /codec/decode", "OPTIONS /codec/encode", "GET /app/session", "POST /app/session", "GET /app/login", "GET /app/assets/*",
				"POST /v1/slack/interactions"}, key,
				"only probes, sign-in, static assets and Slack's signed interactions are public")
			continue
		}
		roles := ""
		for _, r := range Roles {
			if access.Allows(r) {
				roles += " " + string(r)
			}
		}
		w, ok := want[key]
		if assert.True(t, ok, "%s: add its expected roles to this test", key) {
			assert.Equal(t, " "+w, roles, key)
		}
	}
}
