package config

import (
	"slices"
	"strings"
	"testing"
)

var zendeskVars = []string{"SUPPORTDRAFT_ZENDESK_URL", "SUPPORTDRAFT_ZENDESK_EMAIL", "SUPPORTDRAFT_ZENDESK_API_TOKEN",
	"SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET", "SUPPORTDRAFT_ZENDESK_PLAN_FIELD", "SUPPORTDRAFT_ZENDESK_REGION_FIELD",
	"SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE", "SUPPORTDRAFT_ZENDESK_APP_AUD", "SUPPORTDRAFT_ZENDESK_APP_ISS",
	"SUPPORTDRAFT_ZENDESK_APP_TOKEN", "SUPPORTDRAFT_FRAME_ANCESTORS"}

func setZendesk(t *testing.T, vars map[string]string) {
	for _, name := range zendeskVars {
		t.Setenv(name, vars[name])
	}
}

// With only the account set, the JWT issuer and the frame-ancestors default to it.
func TestZendeskDefaults(t *testing.T) {
	setZendesk(t, map[string]string{"SUPPORTDRAFT_ZENDESK_URL": "https://acme.zendesk.com/", "SUPPORTDRAFT_ZENDESK_PLAN_FIELD": "360001"})
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.ZendeskURL != "https://acme.zendesk.com" || c.ZendeskAppIssuer != "acme.zendesk.com" || c.ZendeskPlanField != 360001 ||
		!slices.Equal(c.FrameAncestors, []string{"https://acme.zendesk.com"}) {
		t.Fatalf("zendesk defaults: %+v", c.Zendesk)
	}
	setZendesk(t, nil)
	if c, err := FromEnv(); err != nil || c.ZendeskURL != "" || len(c.FrameAncestors) != 0 {
		t.Fatalf("no Zendesk: %+v, %v", c.Zendesk, err)
	}
}

// A half-configured integration is refused at start, naming what is missing or wrong.
func TestZendeskRefusals(t *testing.T) {
	acct := "https://acme.zendesk.com"
	for name, tc := range map[string]struct {
		vars map[string]string
		want string
	}{
		"secret without account": {map[string]string{"SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET": "0123456789abcdef0123"}, "SUPPORTDRAFT_ZENDESK_URL is required"},
		"account not a URL":      {map[string]string{"SUPPORTDRAFT_ZENDESK_URL": "acme.zendesk.com"}, "SUPPORTDRAFT_ZENDESK_URL="},
		"secret without API user": {map[string]string{"SUPPORTDRAFT_ZENDESK_URL": acct,
			"SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET": "0123456789abcdef0123"}, "SUPPORTDRAFT_ZENDESK_API_TOKEN"},
		"short secret": {map[string]string{"SUPPORTDRAFT_ZENDESK_URL": acct, "SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET": "short"}, "SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET"},
		"key without audience": {map[string]string{"SUPPORTDRAFT_ZENDESK_URL": acct,
			"SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE": "app.pem"}, "SUPPORTDRAFT_ZENDESK_APP_AUD"},
		"field not a number":     {map[string]string{"SUPPORTDRAFT_ZENDESK_URL": acct, "SUPPORTDRAFT_ZENDESK_REGION_FIELD": "region"}, "SUPPORTDRAFT_ZENDESK_REGION_FIELD"},
		"ancestor not an origin": {map[string]string{"SUPPORTDRAFT_FRAME_ANCESTORS": "https://acme.zendesk.com/agent"}, "SUPPORTDRAFT_FRAME_ANCESTORS"},
	} {
		t.Run(name, func(t *testing.T) {
			setZendesk(t, tc.vars)
			if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v should name %s", err, tc.want)
			}
		})
	}
}
