package config

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Zendesk is the Zendesk integration's settings: the account, the sidebar app, the events
// webhook and the origins allowed to frame the sidebar. All empty: the integration is off.
type Zendesk struct {
	ZendeskURL       string // SUPPORTDRAFT_ZENDESK_URL: the account, https://{subdomain}.zendesk.com
	ZendeskEmail     string // SUPPORTDRAFT_ZENDESK_EMAIL: the API user of the Tickets API calls
	ZendeskAPIToken  string // SUPPORTDRAFT_ZENDESK_API_TOKEN: that user's API token
	ZendeskWebhook   string // SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET: the events webhook's signing secret
	ZendeskPlanField int64  // SUPPORTDRAFT_ZENDESK_PLAN_FIELD: the custom ticket field holding the account's plan
	ZendeskRegion    int64  // SUPPORTDRAFT_ZENDESK_REGION_FIELD: the custom ticket field holding its region

	ZendeskAppKey      string // SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE: PEM file of the app's public key (signed URLs)
	ZendeskAppAudience string // SUPPORTDRAFT_ZENDESK_APP_AUD: the "aud" of the app's JWTs (its installation URL)
	ZendeskAppIssuer   string // SUPPORTDRAFT_ZENDESK_APP_ISS: their "iss" (default: the account's host)
	ZendeskAppToken    string // SUPPORTDRAFT_ZENDESK_APP_TOKEN: the agent token whose sessions the app opens

	FrameAncestors []string // SUPPORTDRAFT_FRAME_ANCESTORS: origins allowed to frame the sidebar (default: the Zendesk account)
}

// readZendesk fills c.Zendesk, refusing a half-configured integration with the variable
// that is missing.
func (c *Config) readZendesk() error {
	z := Zendesk{
		ZendeskURL:         strings.TrimRight(os.Getenv("SUPPORTDRAFT_ZENDESK_URL"), "/"),
		ZendeskEmail:       os.Getenv("SUPPORTDRAFT_ZENDESK_EMAIL"),
		ZendeskAPIToken:    os.Getenv("SUPPORTDRAFT_ZENDESK_API_TOKEN"),
		ZendeskWebhook:     os.Getenv("SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET"),
		ZendeskAppKey:      os.Getenv("SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE"),
		ZendeskAppAudience: os.Getenv("SUPPORTDRAFT_ZENDESK_APP_AUD"),
		ZendeskAppIssuer:   os.Getenv("SUPPORTDRAFT_ZENDESK_APP_ISS"),
		ZendeskAppToken:    os.Getenv("SUPPORTDRAFT_ZENDESK_APP_TOKEN"),
		FrameAncestors:     list("SUPPORTDRAFT_FRAME_ANCESTORS"),
	}
	var err error
	for name, dst := range map[string]*int64{"SUPPORTDRAFT_ZENDESK_PLAN_FIELD": &z.ZendeskPlanField, "SUPPORTDRAFT_ZENDESK_REGION_FIELD": &z.ZendeskRegion} {
		if v := os.Getenv(name); v != "" {
			if *dst, err = strconv.ParseInt(v, 10, 64); err != nil || *dst <= 0 {
				return fmt.Errorf("%s=%q: use the custom field's numeric ID", name, v)
			}
		}
	}
	for _, o := range z.FrameAncestors {
		if u, err := url.Parse(o); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" {
			return fmt.Errorf("SUPPORTDRAFT_FRAME_ANCESTORS: %q is not an origin such as https://acme.zendesk.com", o)
		}
	}
	if z.ZendeskURL == "" {
		if z.ZendeskWebhook != "" || z.ZendeskAppKey != "" {
			return fmt.Errorf("SUPPORTDRAFT_ZENDESK_URL is required with the other SUPPORTDRAFT_ZENDESK_ settings: use https://{subdomain}.zendesk.com")
		}
		c.Zendesk = z
		return nil
	}
	u, err := url.Parse(z.ZendeskURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return fmt.Errorf("SUPPORTDRAFT_ZENDESK_URL=%q: use https://{subdomain}.zendesk.com", z.ZendeskURL)
	}
	if z.ZendeskAppIssuer == "" {
		z.ZendeskAppIssuer = u.Host
	}
	if len(z.FrameAncestors) == 0 {
		z.FrameAncestors = []string{u.Scheme + "://" + u.Host}
	}
	if z.ZendeskWebhook != "" {
		if len(z.ZendeskWebhook) < 16 {
			return fmt.Errorf("SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET is %d characters: paste the webhook's whole signing secret", len(z.ZendeskWebhook))
		}
		if z.ZendeskEmail == "" || z.ZendeskAPIToken == "" {
			return fmt.Errorf("SUPPORTDRAFT_ZENDESK_EMAIL and SUPPORTDRAFT_ZENDESK_API_TOKEN are required with the webhook secret: the ticket is read back through the Tickets API")
		}
	}
	if z.ZendeskAppKey != "" && (z.ZendeskAppAudience == "" || z.ZendeskAppToken == "") {
		return fmt.Errorf("SUPPORTDRAFT_ZENDESK_APP_AUD and SUPPORTDRAFT_ZENDESK_APP_TOKEN are required with SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE")
	}
	c.Zendesk = z
	return nil
}
