package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"
)

// Scratch creates an empty, migrated schema in the database at databaseURL and returns a URL
// whose search_path points at it, plus a function that drops it. Evals load outside corpora
// there so the live policy store is never touched, and tests get isolation without one
// database each. Extensions stay in public, which remains on the search path.
func Scratch(ctx context.Context, databaseURL, prefix string) (scratchURL string, drop func(context.Context) error, err error) {
	suffix := make([]byte, 6)
	if _, err := rand.Read(suffix); err != nil {
		return "", nil, err
	}
	schema := prefix + "_" + hex.EncodeToString(suffix)
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return "", nil, fmt.Errorf("connect to Postgres for a scratch schema: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		return "", nil, fmt.Errorf("create scratch schema %s: %w", schema, err)
	}
	scratchURL, err = schemaURL(databaseURL, schema)
	if err != nil {
		return "", nil, err
	}
	drop = func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, databaseURL)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
		return err
	}
	if _, err := Migrate(ctx, scratchURL); err != nil {
		_ = drop(ctx)
		return "", nil, err
	}
	return scratchURL, drop, nil
}

// ScratchSchema returns the URL of scratch schema name, which an earlier Scratch created
// and its caller kept, migrated to the current migrations: a benchmark whose corpus takes
// minutes to load compares two versions of the code on the same one.
func ScratchSchema(ctx context.Context, databaseURL, name string) (string, error) {
	scratchURL, err := schemaURL(databaseURL, name)
	if err != nil {
		return "", err
	}
	if _, err := Migrate(ctx, scratchURL); err != nil {
		return "", fmt.Errorf("scratch schema %s: %w", name, err)
	}
	return scratchURL, nil
}

// schemaURL is databaseURL with its search path on schema, then public (the extensions).
func schemaURL(databaseURL, schema string) (string, error) {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "", fmt.Errorf("parse database URL: %w", err)
	}
	q := u.Query()
	q.Set("search_path", schema+",public")
	u.RawQuery = q.Encode()
	return u.String(), nil
}
