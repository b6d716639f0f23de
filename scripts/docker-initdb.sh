#!/usr/bin/env bash
# Run once by the pgvector image on its first start (docker-compose.yml), as the superuser:
# the extensions the migrations need, the test database, and the app role the API and the
# worker connect as (DML only; `supportdraft migrate` grants it). Passwords come from the
# environment the compose file passes in; nothing here has a default.
set -euo pipefail
: "${SUPPORTDRAFT_APP_PASSWORD:?set SUPPORTDRAFT_APP_PASSWORD}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v app_password="$SUPPORTDRAFT_APP_PASSWORD" <<'SQL'
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE ROLE supportdraft_app LOGIN NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
CREATE DATABASE supportdraft_test OWNER supportdraft;
\c supportdraft_test
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gist;
SQL
