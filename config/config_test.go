package config

import (
	"strings"
	"testing"
	"time"
)

func TestDefaultsNeedNoModel(t *testing.T) {
	for _, name := range []string{"SUPPORTDRAFT_PROVIDER", "SUPPORTDRAFT_EMBEDDER", "OPENAI_API_KEY", "SUPPORTDRAFT_CHECK_BUDGET"} {
		t.Setenv(name, "")
	}
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != "local" || c.Embedder != "hashing" || c.CheckBudget != 2*time.Second || c.IdleTimeout != 72*time.Hour {
		t.Errorf("defaults: %+v", c)
	}
}

func TestBadValuesNameTheVariable(t *testing.T) {
	cases := []struct{ name, value, want string }{
		{"SUPPORTDRAFT_PROVIDER", "anthropic", "SUPPORTDRAFT_PROVIDER"},
		{"SUPPORTDRAFT_EMBEDDER", "bert", "SUPPORTDRAFT_EMBEDDER"},
		{"SUPPORTDRAFT_SUPPORT_ADDRESSES", "billing[@x.example", "SUPPORTDRAFT_SUPPORT_ADDRESSES"},
		{"SUPPORTDRAFT_CHECK_BUDGET", "2", "SUPPORTDRAFT_CHECK_BUDGET"},
		{"SUPPORTDRAFT_EMBEDDING_DIMS", "4", "SUPPORTDRAFT_EMBEDDING_DIMS"},
		{"SUPPORTDRAFT_TOOL_ROUNDS", "two", "SUPPORTDRAFT_TOOL_ROUNDS"},
		{"SUPPORTDRAFT_MODEL_TIMEOUT", "90s", "SUPPORTDRAFT_MODEL_TIMEOUT"},
		{"SUPPORTDRAFT_HELPDESK_URL", "desk.example/drafts", "SUPPORTDRAFT_HELPDESK_URL"},
		{"SUPPORTDRAFT_HELPDESK_URL", "https://desk.example/drafts", "SUPPORTDRAFT_HELPDESK_SECRET"},
		{"SUPPORTDRAFT_RETENTION", "90 days", "SUPPORTDRAFT_RETENTION"},
		{"SUPPORTDRAFT_RETENTION", "1d", "shorter than 7 days"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(tc.name, tc.value)
			_, err := FromEnv()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v should name %s", err, tc.want)
			}
		})
	}
	for _, name := range []string{"SUPPORTDRAFT_PROVIDER", "SUPPORTDRAFT_EMBEDDER"} {
		t.Run(name+"=openai without a key", func(t *testing.T) {
			t.Setenv(name, "openai")
			t.Setenv("OPENAI_API_KEY", "")
			if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), name+"=openai needs OPENAI_API_KEY") {
				t.Fatalf("error %v should ask for OPENAI_API_KEY", err)
			}
		})
	}
}

func TestModelURLMustBeHTTPSUnlessLoopback(t *testing.T) {
	for url, ok := range map[string]bool{
		"https://api.openai.com/v1": true,
		"http://127.0.0.1:8000/v1":  true,
		"http://localhost:11434/v1": true,
		"http://models.internal/v1": false,
		"ftp://api.openai.com/v1":   false,
	} {
		t.Setenv("OPENAI_BASE_URL", url)
		_, err := FromEnv()
		if ok && err != nil {
			t.Errorf("%s refused: %v", url, err)
		}
		if !ok && (err == nil || !strings.Contains(err.Error(), "OPENAI_BASE_URL")) {
			t.Errorf("%s: want an error naming OPENAI_BASE_URL, got %v", url, err)
		}
	}
}
