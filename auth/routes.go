package auth

// routes is THE route→role table: every API route and page, keyed by method and echo
// route pattern. A route missing here is refused (403) for everyone, and api's tests fail
// until it is added, so no route can be served open by accident.
//
// Public routes are the liveness probe (/healthz; a readiness probe belongs here too),
// the token→session exchange, the sign-in form and the static assets only: they carry no
// draft or customer data, and probes come without credentials. /metrics needs an admin
// token (Prometheus sends it with `authorization: {credentials: …}`).
var routes = map[string]Access{
	"GET /healthz": public,
	"GET /readyz":  public,
	"GET /metrics": adminOnly,

	// Drafts: agents (and everyone above them) read, open, edit, rebuild and discard. The
	// help desk may open too (signed): its body is then the ticket's account and revision.
	"POST /v1/drafts":                 hookOrAgent,
	"GET /v1/drafts/:ticket":          readDrafts,
	"GET /v1/drafts/:ticket/history":  readDrafts,
	"POST /v1/drafts/:ticket/edit":    readDrafts,
	"POST /v1/drafts/:ticket/rebuild": readDrafts,
	"POST /v1/drafts/:ticket/discard": readDrafts,
	// A new draft from the ticket's latest stored revision, after the last one ended.
	"POST /v1/drafts/:ticket/reopen": readDrafts,
	// The send hook: the help desk calls it (signed) when the agent presses send; the
	// sidebar's Send check button calls it with the agent's session.
	"POST /v1/drafts/:ticket/send-check": hookOrAgent,
	// Help-desk webhooks: signed, help-desk tokens only.
	"POST /v1/tickets/:ticket/revisions": hookOnly,
	"POST /v1/inbox/messages":            hookOnly,
	"POST /v1/inbox/raw":                 hookOnly, // raw RFC 5322 mail from an inbound-parse service

	// The kill switch halts drafting for everyone: admins only.
	"GET /v1/admin/killswitch":  adminOnly,
	"POST /v1/admin/killswitch": adminOnly,
	// The help desk reports the reply that went out.
	"POST /v1/drafts/:ticket/sent": hookOnly,

	// The review queue: reviewers (and admins) read it and decide.
	"GET /v1/review/queue":            reviewDrafts,
	"POST /v1/drafts/:ticket/approve": reviewDrafts,
	"POST /v1/drafts/:ticket/pull":    reviewDrafts,
	"POST /v1/drafts/:ticket/kill":    reviewDrafts,
	// Reviewers' clicks in Slack: no token, Slack's request signature instead, checked by
	// the handler, which allows each action to the roles the three routes above allow.
	"POST /v1/slack/interactions": public,
	// A reviewer lets a gated draft be sent without approving it, with a reason.
	"POST /v1/drafts/:ticket/override": reviewDrafts,
	// A reviewer takes a queued review, or gives it to another reviewer or to nobody.
	"POST /v1/drafts/:ticket/assign": reviewDrafts,

	// The payload codec for the Temporal Web UI: decoding shows customer text, so only
	// reviewers and admins; the CORS preflight carries no credentials and no data.
	"POST /codec/decode":    reviewDrafts,
	"POST /codec/encode":    reviewDrafts,
	"OPTIONS /codec/decode": public,
	"OPTIONS /codec/encode": public,

	// A one-time sign-in link for the caller's own token (the help desk's sidebar asks for
	// one each time it opens).
	"POST /v1/sign-in-links": readDrafts,

	// Browser pages. Signing in exchanges a token for a session, so it is public, as are
	// the sign-in form and the static assets (they carry no data).
	"GET /app/session":               public,
	"POST /app/session":              public,
	"GET /app/login":                 public,
	"GET /app/assets/*":              public,
	"GET /app/":                      readDrafts,
	"GET /app/tickets/:ticket":       readDrafts,
	"GET /app/tickets/:ticket/state": readDrafts,
	"GET /app/review":                reviewDrafts,
	"GET /app/admin":                 adminOnly,

	// Zendesk: its events carry Zendesk's own webhook signature and the sidebar's first
	// load carries the app's RS256 JWT; each is verified by its handler (package
	// integrations/zendesk) before anything is read or a session opened. The sidebar's
	// script and style sheet carry no data.
	"POST /v1/zendesk/events":   public,
	"POST /app/zendesk/sidebar": public,
	"GET /app/zendesk/assets/*": public,
}

// Lookup returns the access rule for a method and echo route pattern.
func Lookup(method, path string) (Access, bool) {
	a, ok := routes[method+" "+path]
	return a, ok
}
