#!/usr/bin/env bash
# test.sh runs every test against real services: it starts Postgres + pgvector and the
# Temporal dev server through services.sh (idempotent; seconds when already up), then
# `go vet` and `go test` over the whole module. A missing service fails the run: no test
# skips because a service is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/services.sh)"
go vet ./...
go test -count=1 "$@" ./...
