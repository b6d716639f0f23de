package config

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Hardening is the input contract's sets and the HTTP defences' settings.
type Hardening struct {
	Plans   []string // SUPPORTDRAFT_PLANS: plans accepted at intake (comma-separated; empty: any well-formed name)
	Regions []string // SUPPORTDRAFT_REGIONS: regions accepted at intake
	Locales []string // SUPPORTDRAFT_LOCALES: locales accepted at intake

	AllowedHosts   []string // SUPPORTDRAFT_ALLOWED_HOSTS: Host header values the API serves
	AllowedOrigins []string // SUPPORTDRAFT_ALLOWED_ORIGINS: browser origins allowed to change drafts
	RatePerMinute  float64  // SUPPORTDRAFT_RATE_LIMIT: state-changing requests per minute per IP and per token (0: off)
	RateBurst      int      // SUPPORTDRAFT_RATE_BURST: how many of those may come at once
	SpoolDir       string   // SUPPORTDRAFT_SPOOL_DIR: where send-check verdicts wait while Postgres is down

	CodecKeys      string // SUPPORTDRAFT_CODEC_KEYS: id:base64key,… payload encryption keys (last is active)
	TemporalAPIKey string // TEMPORAL_API_KEY: sent as a bearer token to Temporal (implies TLS)
	TemporalTLS    bool   // TEMPORAL_TLS: connect to Temporal over TLS
	TemporalCA     string // TEMPORAL_TLS_CA: PEM file of the CA that signed Temporal's certificate (empty: system roots)
	TemporalCert   string // TEMPORAL_TLS_CERT: PEM client certificate for mTLS
	TemporalKey    string // TEMPORAL_TLS_KEY: PEM client key for mTLS
}

// readHardening fills c.Hardening. The default host allow-list is the loopback names plus
// the API's own listen host, so a DNS-rebinding page cannot reach a local API; a public
// deployment names its hosts.
func (c *Config) readHardening() error {
	h := Hardening{
		Plans: list("SUPPORTDRAFT_PLANS"), Regions: list("SUPPORTDRAFT_REGIONS"), Locales: list("SUPPORTDRAFT_LOCALES"),
		AllowedHosts:   list("SUPPORTDRAFT_ALLOWED_HOSTS"),
		AllowedOrigins: list("SUPPORTDRAFT_ALLOWED_ORIGINS"),
		SpoolDir:       env("SUPPORTDRAFT_SPOOL_DIR", ".data/spool"),
		CodecKeys:      os.Getenv("SUPPORTDRAFT_CODEC_KEYS"),
		TemporalAPIKey: os.Getenv("TEMPORAL_API_KEY"),
		TemporalCA:     os.Getenv("TEMPORAL_TLS_CA"),
		TemporalCert:   os.Getenv("TEMPORAL_TLS_CERT"),
		TemporalKey:    os.Getenv("TEMPORAL_TLS_KEY"),
	}
	if len(h.AllowedHosts) == 0 {
		h.AllowedHosts = []string{"localhost", "127.0.0.1", "::1"}
		if host, _, err := net.SplitHostPort(c.HTTPAddr); err == nil && host != "" && !net.ParseIP(host).IsUnspecified() && host != "localhost" && host != "127.0.0.1" {
			h.AllowedHosts = append(h.AllowedHosts, host)
		}
	}
	if v := os.Getenv("SUPPORTDRAFT_RATE_LIMIT"); v != "" {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("SUPPORTDRAFT_RATE_LIMIT=%q: use requests per minute, such as 60 (0 turns the limit off)", v)
		}
		h.RatePerMinute = n
	} else {
		h.RatePerMinute = 60
	}
	var err error
	if h.TemporalTLS, err = boolEnv("TEMPORAL_TLS", h.TemporalAPIKey != "" || h.TemporalCert != ""); err != nil {
		return err
	}
	if (h.TemporalCert == "") != (h.TemporalKey == "") {
		return fmt.Errorf("TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together: set both for mTLS, or neither")
	}
	if h.RateBurst, err = intEnv("SUPPORTDRAFT_RATE_BURST", 10); err != nil {
		return err
	}
	if h.RateBurst < 1 {
		return fmt.Errorf("SUPPORTDRAFT_RATE_BURST=%d: use 1 or more", h.RateBurst)
	}
	c.Hardening = h
	return nil
}

// list reads a comma-separated variable; blanks are dropped.
func list(name string) []string {
	var out []string
	for _, v := range strings.Split(os.Getenv(name), ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// checkModelURL refuses a model endpoint that would carry ticket text in clear: http is
// accepted only for a loopback host (a local model server, the test server).
func checkModelURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("OPENAI_BASE_URL=%q: use an https:// URL", raw)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("OPENAI_BASE_URL=%q: ticket text would travel unencrypted; use https:// (http only for a loopback host)", raw)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
