// Package config reads supportdraft's settings from the environment, once, at start-up.
// Every setting has a default that works on a fresh machine with no model or API key.
package config

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/inbox"
)

// Config is every setting the binary reads.
type Config struct {
	DatabaseURL       string        // DATABASE_URL
	TemporalAddress   string        // TEMPORAL_ADDRESS
	TemporalNamespace string        // TEMPORAL_NAMESPACE
	HTTPAddr          string        // SUPPORTDRAFT_HTTP_ADDR
	APIURL            string        // SUPPORTDRAFT_API_URL: where CLI commands reach the API
	APIToken          string        // SUPPORTDRAFT_TOKEN: the agent token CLI commands call the API with
	IdleTimeout       time.Duration // SUPPORTDRAFT_DRAFT_IDLE_TIMEOUT: a draft nobody touches closes after this
	CheckBudget       time.Duration // SUPPORTDRAFT_CHECK_BUDGET: how long send-check may try before answering "unchecked"
	ReviewDelay       time.Duration // SUPPORTDRAFT_REVIEW_DELAY: how long a queued draft can be pulled back or killed before it may reach the help desk
	TemporalUI        string        // SUPPORTDRAFT_TEMPORAL_UI: Web UI base URL, for links
	Vocabulary        string        // SUPPORTDRAFT_VOCABULARY: a file of extra commitment vocabulary
	SupportAddresses  []string      // SUPPORTDRAFT_SUPPORT_ADDRESSES: the help desk's own addresses (comma-separated; globs allowed)
	Rules             string        // SUPPORTDRAFT_RULES: the intake's domain and keyword rules file (YAML)
	Rubric            string        // SUPPORTDRAFT_RUBRIC: the draft-quality rubric file (YAML); empty is the embedded one
	TriageModel       string        // SUPPORTDRAFT_TRIAGE_MODEL: the small model that triages inbound mail (provider openai)
	WebhookSecret     string        // SUPPORTDRAFT_WEBHOOK_SECRET: HMAC key of help-desk webhook signatures (empty: webhooks refused)
	SessionKey        string        // SUPPORTDRAFT_SESSION_KEY: HMAC key of browser sessions (empty: random per process)
	HelpDeskURL       string        // SUPPORTDRAFT_HELPDESK_URL: where approved drafts are POSTed as draft replies (empty: approvals are recorded only)
	HelpDeskSecret    string        // SUPPORTDRAFT_HELPDESK_SECRET: HMAC key signing those POSTs (required with the URL)
	Retention         time.Duration // SUPPORTDRAFT_RETENTION: customer and agent text older than this is purged (90d)

	Provider      string        // SUPPORTDRAFT_PROVIDER: local | openai
	OpenAIBaseURL string        // OPENAI_BASE_URL
	OpenAIAPIKey  string        // OPENAI_API_KEY
	DraftModel    string        // SUPPORTDRAFT_DRAFT_MODEL
	JudgeModel    string        // SUPPORTDRAFT_JUDGE_MODEL
	ToolRounds    int           // SUPPORTDRAFT_TOOL_ROUNDS: search_policy calls allowed before the model must answer (0 = off)
	ModelTimeout  time.Duration // SUPPORTDRAFT_MODEL_TIMEOUT: one model call; a hung endpoint fails the attempt and Temporal retries

	Embedder       string // SUPPORTDRAFT_EMBEDDER: hashing | openai
	EmbeddingModel string // SUPPORTDRAFT_EMBEDDING_MODEL
	EmbeddingDims  int    // SUPPORTDRAFT_EMBEDDING_DIMS

	Hardening // input sets, HTTP defences (hardening.go)
	Zendesk   // the Zendesk app and events (zendesk.go)
	Database  // the migration URL and the app role (database.go)
	Mail      // own addresses and the IMAP mailbox (mail.go)
	Slack     // the reviewers' Slack app (slack.go)
}

// FromEnv reads the environment; an error names the variable and the value it refused.
func FromEnv() (Config, error) {
	c := Config{
		DatabaseURL:       env("DATABASE_URL", "postgres://supportdraft:supportdraft@127.0.0.1:5432/supportdraft?sslmode=disable"),
		TemporalAddress:   env("TEMPORAL_ADDRESS", "127.0.0.1:7233"),
		TemporalNamespace: env("TEMPORAL_NAMESPACE", "default"),
		HTTPAddr:          env("SUPPORTDRAFT_HTTP_ADDR", "127.0.0.1:8080"),
		TemporalUI:        env("SUPPORTDRAFT_TEMPORAL_UI", "http://127.0.0.1:8233"),
		Vocabulary:        os.Getenv("SUPPORTDRAFT_VOCABULARY"),
		WebhookSecret:     os.Getenv("SUPPORTDRAFT_WEBHOOK_SECRET"),
		SessionKey:        os.Getenv("SUPPORTDRAFT_SESSION_KEY"),
		HelpDeskURL:       os.Getenv("SUPPORTDRAFT_HELPDESK_URL"),
		HelpDeskSecret:    os.Getenv("SUPPORTDRAFT_HELPDESK_SECRET"),
		Provider:          env("SUPPORTDRAFT_PROVIDER", "local"),
		OpenAIBaseURL:     env("OPENAI_BASE_URL", "https://api.openai.com/v1"),
		OpenAIAPIKey:      os.Getenv("OPENAI_API_KEY"),
		DraftModel:        env("SUPPORTDRAFT_DRAFT_MODEL", "gpt-4.1"),
		JudgeModel:        env("SUPPORTDRAFT_JUDGE_MODEL", "gpt-4.1-mini"),
		Embedder:          env("SUPPORTDRAFT_EMBEDDER", "hashing"),
		EmbeddingModel:    env("SUPPORTDRAFT_EMBEDDING_MODEL", "text-embedding-3-small"),
		Rules:             os.Getenv("SUPPORTDRAFT_RULES"),
		Rubric:            os.Getenv("SUPPORTDRAFT_RUBRIC"),
		TriageModel:       env("SUPPORTDRAFT_TRIAGE_MODEL", "gpt-4.1-nano"),
		SupportAddresses:  inbox.DefaultSupportAddresses,
	}
	if v := os.Getenv("SUPPORTDRAFT_SUPPORT_ADDRESSES"); v != "" {
		c.SupportAddresses = strings.Split(v, ",")
		if _, err := inbox.NewSupport(c.SupportAddresses); err != nil {
			return c, fmt.Errorf("SUPPORTDRAFT_SUPPORT_ADDRESSES=%q: %w", v, err)
		}
	}
	c.APIToken = os.Getenv("SUPPORTDRAFT_TOKEN")
	c.APIURL = env("SUPPORTDRAFT_API_URL", "http://"+c.HTTPAddr)
	var err error
	if c.IdleTimeout, err = durationEnv("SUPPORTDRAFT_DRAFT_IDLE_TIMEOUT", 72*time.Hour); err != nil {
		return c, err
	}
	if c.CheckBudget, err = durationEnv("SUPPORTDRAFT_CHECK_BUDGET", 2*time.Second); err != nil {
		return c, err
	}
	if c.ReviewDelay, err = durationEnv("SUPPORTDRAFT_REVIEW_DELAY", 10*time.Minute); err != nil {
		return c, err
	}
	if c.Retention, err = retentionEnv(); err != nil {
		return c, err
	}
	if c.ToolRounds, err = intEnv("SUPPORTDRAFT_TOOL_ROUNDS", 0); err != nil {
		return c, err
	}
	if c.ModelTimeout, err = durationEnv("SUPPORTDRAFT_MODEL_TIMEOUT", 60*time.Second); err != nil {
		return c, err
	}
	if c.ModelTimeout > 80*time.Second {
		return c, fmt.Errorf("SUPPORTDRAFT_MODEL_TIMEOUT=%s: at most 80s, inside the model activity's 90s timeout", c.ModelTimeout)
	}
	if c.EmbeddingDims, err = intEnv("SUPPORTDRAFT_EMBEDDING_DIMS", 256); err != nil {
		return c, err
	}
	if err := c.checkOpenAIChoice("SUPPORTDRAFT_PROVIDER", c.Provider, "local", " (unset it, or set SUPPORTDRAFT_PROVIDER=local to draft without a model)"); err != nil {
		return c, err
	}
	if err := c.checkOpenAIChoice("SUPPORTDRAFT_EMBEDDER", c.Embedder, "hashing", ""); err != nil {
		return c, err
	}
	if err := c.checkHelpDesk(); err != nil {
		return c, err
	}
	for name, v := range map[string]string{"SUPPORTDRAFT_WEBHOOK_SECRET": c.WebhookSecret, "SUPPORTDRAFT_SESSION_KEY": c.SessionKey,
		"SUPPORTDRAFT_HELPDESK_SECRET": c.HelpDeskSecret} {
		if v != "" && len(v) < 32 {
			return c, fmt.Errorf("%s is %d characters: use at least 32 random ones (openssl rand -hex 32)", name, len(v))
		}
	}
	if c.EmbeddingDims < 8 || c.EmbeddingDims > 4096 {
		return c, fmt.Errorf("SUPPORTDRAFT_EMBEDDING_DIMS=%d: use a value between 8 and 4096", c.EmbeddingDims)
	}
	if err := checkModelURL(c.OpenAIBaseURL); err != nil {
		return c, err
	}
	if err := c.readHardening(); err != nil {
		return c, err
	}
	if err := c.readDatabase(); err != nil {
		return c, err
	}
	if err := c.readZendesk(); err != nil {
		return c, err
	}
	if err := c.readMail(); err != nil {
		return c, err
	}
	if err := c.readSlack(); err != nil {
		return c, err
	}
	return c, nil
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// parseEnv reads the variable name with parse, keeping def when it is unset; a value parse
// refuses is an error naming the variable, its value and hint.
func parseEnv[T any](name string, def T, parse func(string) (T, bool), hint string) (T, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	x, ok := parse(v)
	if !ok {
		return def, fmt.Errorf("%s=%q: %s", name, v, hint)
	}
	return x, nil
}

func boolEnv(name string, def bool) (bool, error) {
	return parseEnv(name, def, func(v string) (bool, bool) {
		b, err := strconv.ParseBool(v)
		return b, err == nil
	}, "use true or false")
}

func intEnv(name string, def int) (int, error) {
	return parseEnv(name, def, func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil
	}, "use a whole number")
}

func durationEnv(name string, def time.Duration) (time.Duration, error) {
	return parseEnv(name, def, func(v string) (time.Duration, bool) {
		d, err := time.ParseDuration(v)
		return d, err == nil && d > 0
	}, "use a positive Go duration such as 72h or 1500ms")
}

// checkOpenAIChoice refuses a value of the variable name other than the built-in one or
// openai, and openai without OPENAI_API_KEY; hint ends that error.
func (c Config) checkOpenAIChoice(name, value, builtIn, hint string) error {
	switch value {
	case builtIn:
		return nil
	case "openai":
		if c.OpenAIAPIKey == "" {
			return fmt.Errorf("%s=openai needs OPENAI_API_KEY%s", name, hint)
		}
		return nil
	}
	return fmt.Errorf("%s=%q: use %s or openai", name, value, builtIn)
}

// checkHelpDesk refuses a help-desk URL that is not http(s), or one with no secret to sign
// the drafts with: the help desk could not tell them from anyone else's.
func (c Config) checkHelpDesk() error {
	if c.HelpDeskURL == "" {
		return nil
	}
	u, err := url.Parse(c.HelpDeskURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("SUPPORTDRAFT_HELPDESK_URL=%q: use an http(s) URL", c.HelpDeskURL)
	}
	if c.HelpDeskSecret == "" {
		return fmt.Errorf("SUPPORTDRAFT_HELPDESK_URL is set but SUPPORTDRAFT_HELPDESK_SECRET is not: approved drafts are signed with it")
	}
	return nil
}
