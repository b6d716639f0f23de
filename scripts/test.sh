#!/usr/bin/env bash
# test.sh runs every test against real services: it starts Postgres + pgvector and the
# Temporal dev server through services.sh (idempotent; seconds when already up), the
# Dovecot IMAP test instance through imap.sh (the mail tests read a real mailbox), installs
# chromium for the browser tests (if missing), then `go vet` and `go test` over the whole
# module. A missing service fails the run: no test skips because a service is absent.
# With --cluster the same tests run against the Temporal cluster of scripts/cluster.sh
# (started if it is not up) instead of the dev server. Other arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
cluster=false
args=()
for a in "$@"; do
  if [ "$a" = --cluster ]; then cluster=true; else args+=("$a"); fi
done
# Each script's exports are assigned first: inside eval "$(…)" its failure would go
# unnoticed, and the --cluster run would test the dev server instead.
exports=$(scripts/services.sh)
eval "$exports"
exports=$(scripts/imap.sh)
eval "$exports"
if $cluster; then
  exports=$(scripts/cluster.sh up)
  eval "$exports"
fi
# The browser tests (package web) drive Debian's chromium headless; install it once.
if ! command -v chromium >/dev/null; then
  echo "test.sh: installing chromium for the browser tests (once, ~2 min)" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >&2
fi
go vet ./...
go test -count=1 "${args[@]}" ./...
