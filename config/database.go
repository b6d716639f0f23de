package config

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Database is where the store lives and who may change its schema.
type Database struct {
	// MigrateURL (SUPPORTDRAFT_MIGRATE_URL; default DATABASE_URL) connects as the role
	// that owns the schema: `migrate` and `policy import` (which adds retrieval partitions)
	// use it. The API and the worker use DATABASE_URL, which in production names a role
	// with only SELECT, INSERT, UPDATE and DELETE.
	MigrateURL string
	// AppRole (SUPPORTDRAFT_APP_ROLE) is that role: `migrate` grants it DML on every table
	// and sequence, now and (default privileges) later. Empty: no grants.
	AppRole string
}

// strongSSLModes are the sslmode values that refuse an unencrypted connection.
var strongSSLModes = map[string]bool{"require": true, "verify-ca": true, "verify-full": true}

var (
	dsnSSLMode = regexp.MustCompile(`(?:^|\s)sslmode\s*=\s*'?([a-z-]+)`)
	roleName   = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)
)

// readDatabase fills c.Database and checks both URLs.
func (c *Config) readDatabase() error {
	c.MigrateURL = env("SUPPORTDRAFT_MIGRATE_URL", c.DatabaseURL)
	c.AppRole = os.Getenv("SUPPORTDRAFT_APP_ROLE")
	if c.AppRole != "" && !roleName.MatchString(c.AppRole) {
		return fmt.Errorf("SUPPORTDRAFT_APP_ROLE=%q: use a lowercase Postgres role name (letters, digits, _)", c.AppRole)
	}
	for _, v := range []struct{ name, raw string }{{"DATABASE_URL", c.DatabaseURL}, {"SUPPORTDRAFT_MIGRATE_URL", c.MigrateURL}} {
		if err := checkDatabaseURL(v.name, v.raw); err != nil {
			return err
		}
	}
	return nil
}

// checkDatabaseURL refuses a connection to a host other than this machine that would not
// insist on TLS: ticket text and the database password would cross the network in clear
// (libpq's default, "prefer", falls back to plain text without a word). Loopback hosts and
// Unix sockets may use any sslmode. The error names the variable, never the password.
func checkDatabaseURL(name, raw string) error {
	cfg, err := pgconn.ParseConfig(raw)
	if err != nil {
		return fmt.Errorf("%s is not a Postgres URL or connection string: use postgres://user:password@host:5432/db?sslmode=require", name)
	}
	hosts := []string{cfg.Host}
	for _, fb := range cfg.Fallbacks {
		hosts = append(hosts, fb.Host)
	}
	remote := ""
	for _, h := range hosts {
		if !strings.HasPrefix(h, "/") && !isLoopback(h) {
			remote = h
		}
	}
	if remote == "" {
		return nil
	}
	if mode := sslMode(raw); !strongSSLModes[mode] {
		return fmt.Errorf("%s names host %s with sslmode=%s: outside this machine use sslmode=require or verify-full", name, remote, mode)
	}
	return nil
}

// sslMode is the sslmode a connection string asks for: its own parameter, else PGSSLMODE,
// else libpq's default, prefer.
func sslMode(raw string) string {
	if strings.HasPrefix(raw, "postgres://") || strings.HasPrefix(raw, "postgresql://") {
		if u, err := url.Parse(raw); err == nil && u.Query().Get("sslmode") != "" {
			return u.Query().Get("sslmode")
		}
	} else if m := dsnSSLMode.FindStringSubmatch(raw); m != nil {
		return m[1]
	}
	if v := os.Getenv("PGSSLMODE"); v != "" {
		return v
	}
	return "prefer"
}
