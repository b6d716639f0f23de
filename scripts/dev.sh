#!/usr/bin/env bash
# dev.sh is the README's main command: services up (Postgres + pgvector, Temporal dev
# server), build the binary, then `supportdraft dev`: migrations, the sample corpus, worker
# and API in one process, and a first draft printed. Extra arguments go to `supportdraft dev`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Assigned first: inside eval "$(…)" a failing script would go unnoticed.
exports=$(scripts/services.sh)
eval "$exports"
go build -o .data/supportdraft ./cmd/supportdraft
exec .data/supportdraft dev "$@"
