package cli

import (
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/integrations/zendesk"
)

// zendeskAPI is the API's Zendesk integration from the configuration; nil when
// SUPPORTDRAFT_ZENDESK_URL is unset. A public key file that cannot be read is refused at
// start, naming the variable.
func zendeskAPI(cfg config.Config) (*api.Zendesk, error) {
	z := cfg.Zendesk
	if z.ZendeskURL == "" {
		return nil, nil
	}
	out := &api.Zendesk{AppToken: z.ZendeskAppToken,
		Fields: zendesk.Fields{Plan: z.ZendeskPlanField, Region: z.ZendeskRegion}}
	if z.ZendeskAppKey != "" {
		key, err := zendesk.LoadPublicKey(z.ZendeskAppKey)
		if err != nil {
			return nil, usagef("SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE: %v", err)
		}
		out.App = &zendesk.AppVerifier{Key: key, Issuer: z.ZendeskAppIssuer, Audience: z.ZendeskAppAudience}
	}
	if z.ZendeskWebhook != "" {
		out.WebhookSecret = []byte(z.ZendeskWebhook)
		out.Client = zendesk.NewClient(z.ZendeskURL, z.ZendeskEmail, z.ZendeskAPIToken)
	}
	return out, nil
}

// handOff is where approved drafts go: Zendesk tickets to Zendesk as internal notes when
// its API is configured, the others to SUPPORTDRAFT_HELPDESK_URL; nil when neither is.
func handOff(cfg config.Config) helpdesk.Deliverer {
	var generic helpdesk.Deliverer
	if cfg.HelpDeskURL != "" {
		generic = helpdesk.New(cfg.HelpDeskURL, cfg.HelpDeskSecret)
	}
	z := cfg.Zendesk
	if z.ZendeskURL == "" || z.ZendeskAPIToken == "" {
		return generic
	}
	c := zendesk.NewClient(z.ZendeskURL, z.ZendeskEmail, z.ZendeskAPIToken)
	c.Next = generic
	return c
}
