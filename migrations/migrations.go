// Package migrations embeds the numbered SQL migrations that `supportdraft migrate` applies.
// goose records each applied file in goose_db_version, so running migrate twice is a no-op.
package migrations

import "embed"

// FS holds the migration files, named NNNN_name.sql.
//
//go:embed *.sql
var FS embed.FS
