package config

import (
	"strings"
	"testing"
)

func TestDatabaseURLOutsideThisMachineNeedsTLS(t *testing.T) {
	cases := []struct {
		url     string
		wantErr string // "" when accepted
	}{
		{"postgres://u:p@127.0.0.1:5432/db?sslmode=disable", ""},
		{"postgres://u:p@localhost/db", ""},
		{"host=/var/run/postgresql dbname=db", ""},
		{"postgres://u:p@db.internal:5432/db?sslmode=require", ""},
		{"postgres://u:p@db.internal:5432/db?sslmode=verify-full", ""},
		{"host=db.internal dbname=db sslmode=verify-full", ""},
		{"postgres://u:secret@db.internal:5432/db?sslmode=disable", "DATABASE_URL names host db.internal with sslmode=disable"},
		{"postgres://u:secret@db.internal:5432/db", "sslmode=prefer"},
		{"host=10.0.0.5 dbname=db sslmode=allow", "sslmode=allow"},
		{"postgres://u:p@127.0.0.1,db.internal/db?sslmode=prefer", "db.internal"},
	}
	for _, tc := range cases {
		t.Run(tc.url, func(t *testing.T) {
			t.Setenv("PGSSLMODE", "")
			t.Setenv("DATABASE_URL", tc.url)
			t.Setenv("SUPPORTDRAFT_MIGRATE_URL", "")
			_, err := FromEnv()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			case err != nil && strings.Contains(err.Error(), "secret"):
				t.Fatalf("the error shows the password: %v", err)
			}
		})
	}
	t.Run("the migration URL is checked too and defaults to DATABASE_URL", func(t *testing.T) {
		t.Setenv("DATABASE_URL", "postgres://app:p@127.0.0.1/db?sslmode=disable")
		t.Setenv("SUPPORTDRAFT_MIGRATE_URL", "")
		c, err := FromEnv()
		if err != nil || c.MigrateURL != c.DatabaseURL {
			t.Fatalf("default: %q, %v", c.MigrateURL, err)
		}
		t.Setenv("SUPPORTDRAFT_MIGRATE_URL", "postgres://owner:p@db.internal/db?sslmode=disable")
		if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), "SUPPORTDRAFT_MIGRATE_URL") {
			t.Fatalf("error %v should name SUPPORTDRAFT_MIGRATE_URL", err)
		}
	})
}
