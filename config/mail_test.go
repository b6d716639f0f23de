package config

import (
	"slices"
	"strings"
	"testing"
)

// TestOwnAddressesDefaultToTheExactSupportAddresses: a glob such as support@* would make
// every customer's own support desk a loop, so only exact addresses count by default.
func TestOwnAddressesDefaultToTheExactSupportAddresses(t *testing.T) {
	t.Setenv("SUPPORTDRAFT_SUPPORT_ADDRESSES", "billing@company.example,support@*")
	t.Setenv("SUPPORTDRAFT_OWN_ADDRESSES", "")
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.OwnAddresses, []string{"billing@company.example"}) {
		t.Fatalf("own addresses %v", c.OwnAddresses)
	}
	own, err := c.Mail.Own()
	if err != nil || !own.Is("billing@company.example") || own.Is("support@customer.example") {
		t.Fatalf("own %v, err %v", own, err)
	}
	if c.IMAPMailbox != "INBOX" || c.IMAPTLS != "tls" {
		t.Errorf("IMAP defaults: %+v", c.Mail)
	}
}

func TestBadMailValuesNameTheVariable(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{"SUPPORTDRAFT_IMAP_TLS", "ssl"},
		{"SUPPORTDRAFT_IMAP_POLL", "10ms"},
		{"SUPPORTDRAFT_IMAP_POLL", "often"},
		{"SUPPORTDRAFT_OWN_ADDRESSES", "billing"},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.name, tc.value)
			if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), tc.name) {
				t.Fatalf("error %v should name %s", err, tc.name)
			}
		})
	}
}

func TestSlackHalfConfiguredNamesWhatIsMissing(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SUPPORTDRAFT_SLACK_CHANNEL": "C0REVIEW"}, "SUPPORTDRAFT_SLACK_TOKEN"},
		{map[string]string{"SUPPORTDRAFT_SLACK_CHANNEL": "C0REVIEW", "SUPPORTDRAFT_SLACK_TOKEN": "xoxb-1"}, "SUPPORTDRAFT_SLACK_SIGNING_SECRET"},
		{map[string]string{"SUPPORTDRAFT_SLACK_SIGNING_SECRET": "s"}, "SUPPORTDRAFT_SLACK_REVIEWERS"},
		{map[string]string{"SUPPORTDRAFT_SLACK_REVIEWERS": "U1=ana:boss"}, "SUPPORTDRAFT_SLACK_REVIEWERS"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			for _, k := range []string{"SUPPORTDRAFT_SLACK_CHANNEL", "SUPPORTDRAFT_SLACK_TOKEN", "SUPPORTDRAFT_SLACK_SIGNING_SECRET", "SUPPORTDRAFT_SLACK_REVIEWERS"} {
				t.Setenv(k, tc.env[k])
			}
			if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v should name %s", err, tc.want)
			}
		})
	}
	t.Setenv("SUPPORTDRAFT_SLACK_CHANNEL", "C0REVIEW")
	t.Setenv("SUPPORTDRAFT_SLACK_TOKEN", "xoxb-1")
	t.Setenv("SUPPORTDRAFT_SLACK_SIGNING_SECRET", "s")
	t.Setenv("SUPPORTDRAFT_SLACK_REVIEWERS", "U1=ana")
	c, err := FromEnv()
	if err != nil || c.SlackReviewers["U1"].Name != "ana" || c.SlackAPIURL != "https://slack.com/api/" {
		t.Fatalf("config %+v, err %v", c.Slack, err)
	}
}
