#!/usr/bin/env bash
# services.sh brings up what supportdraft needs on this machine, idempotently:
# Postgres 15 with pgvector 0.8.0 and a Temporal dev server. The README, `supportdraft dev`
# and .ci/run all call it. When DATABASE_URL and TEMPORAL_ADDRESS are both set it starts
# nothing and only checks that they answer. It prints the environment to use as
# `export NAME=value` lines on stdout (progress goes to stderr), so callers can
#   eval "$(scripts/services.sh)"
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
data="${SUPPORTDRAFT_DATA:-$root/.data}"
mkdir -p "$data"
# Only the export lines may reach stdout: keep it on fd 3 and send everything else, including
# what pg_ctlcluster prints ("Removed stale pid file." after a killed session), to stderr.
# Servers started here must not inherit fd 3 (3>&-): a caller's $(...) would wait for it
# to close, that is, forever.
exec 3>&1 1>&2
log() { printf 'services: %s\n' "$*" >&2; }
die() { printf 'services: error: %s\n' "$*" >&2; exit 1; }

TEMPORAL_VERSION=1.5.1
PG_VERSION=15
PG_BIN=/usr/lib/postgresql/$PG_VERSION/bin
DB_USER=supportdraft # owns the schema: migrations, policy import, tests' scratch schemas
DB_PASS=supportdraft
APP_USER=supportdraft_app # DML only (granted by `supportdraft migrate`): what production's API and worker use
APP_PASS=supportdraft_app
DB_PORT=${SUPPORTDRAFT_PG_PORT:-5432}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }
export PGOPTIONS='-c client_min_messages=warning'


install_pgvector() {
  [ -f /usr/share/postgresql/$PG_VERSION/extension/vector.control ] && return 0
  log "building pgvector 0.8.0 from Debian's source package (once, ~30 s)"
  local d="$data/pgvector-src"; rm -rf "$d"; mkdir -p "$d/lists/partial"
  sed -n '1,/^$/p' /etc/apt/sources.list.d/debian.sources |
    sed 's/^Types:.*/Types: deb-src/; s/^Suites:.*/Suites: trixie/' > "$d/src.sources"
  local o=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$d" -o "Dir::State::Lists=$d/lists")
  as_root apt-get "${o[@]}" update -qq >&2
  (cd "$d" && as_root apt-get "${o[@]}" source --download-only pgvector >&2)
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-server-dev-$PG_VERSION >&2
  tar xzf "$d"/pgvector_*.orig.tar.gz -C "$d"
  local src; src=$(ls -d "$d"/pgvector-*/ | head -1)
  as_root make -s -C "$src" PG_CONFIG=$PG_BIN/pg_config >&2
  as_root make -s -C "$src" install PG_CONFIG=$PG_BIN/pg_config >&2
  [ -f /usr/share/postgresql/$PG_VERSION/extension/vector.control ] || die "pgvector install did not produce vector.control"
}

start_postgres() {
  [ -x $PG_BIN/postgres ] || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-$PG_VERSION >&2
  install_pgvector
  if ! pg_lsclusters -h | awk -v v=$PG_VERSION '$1==v && $2=="main"' | grep -q online; then
    log "starting Postgres $PG_VERSION"
    # A second try after a pause: backends of a killed server may hold the socket lock briefly.
    as_root pg_ctlcluster $PG_VERSION main start 3>&- || { sleep 3; as_root pg_ctlcluster $PG_VERSION main start 3>&-; }
  fi
  for _ in $(seq 1 50); do as_postgres psql -p "$DB_PORT" -Atqc 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
  as_postgres psql -p "$DB_PORT" -Atqc 'select 1' >/dev/null || die "Postgres did not answer on port $DB_PORT; see /var/log/postgresql/"
  # Retrieval walks each scope's graph and reads its rows; keep them in Postgres' own memory:
  # a quarter of the machine's, Postgres' usual advice, and never under 512 MB (once, then
  # restart). A page read from the OS cache instead costs a system call, and a large
  # corpus's graphs and rows run to gigabytes (docs/decisions/005-retrieval-graphs.md).
  local mb=$(( $(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 4 / 1024 ))
  [ "$mb" -ge 512 ] || mb=512
  if [ "$(as_postgres psql -p "$DB_PORT" -Atqc "select setting::bigint * 8 / 1024 from pg_settings where name = 'shared_buffers'")" != "$mb" ]; then
    log "setting shared_buffers = ${mb}MB (one restart)"
    as_postgres psql -p "$DB_PORT" -qc "ALTER SYSTEM SET shared_buffers = '${mb}MB'" >/dev/null
    as_root pg_ctlcluster $PG_VERSION main restart 3>&-
    for _ in $(seq 1 50); do as_postgres psql -p "$DB_PORT" -Atqc 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
  fi
  as_postgres psql -p "$DB_PORT" -qv ON_ERROR_STOP=1 >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$DB_USER') THEN
    CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASS' CREATEDB;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$APP_USER') THEN
    CREATE ROLE $APP_USER LOGIN PASSWORD '$APP_PASS' NOCREATEDB NOCREATEROLE;
  END IF;
END \$\$;
SQL
  local db
  for db in supportdraft supportdraft_test; do
    if [ -z "$(as_postgres psql -p "$DB_PORT" -Atqc "select 1 from pg_database where datname='$db'")" ]; then
      as_postgres createdb -p "$DB_PORT" -O $DB_USER "$db"
    fi
    # Extensions need a superuser once; migrations then only check they exist.
    as_postgres psql -p "$DB_PORT" -d "$db" -qc 'CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS btree_gist;' >/dev/null
  done
}

# temporal_bin builds the pinned CLI into the project's data directory once; a marker file
# records the version, because a CLI built with `go install` reports 0.0.0-DEV.
temporal_bin() {
  local gobin="$data/bin"
  if [ -x "$gobin/temporal" ] && [ "$(cat "$gobin/temporal.version" 2>/dev/null)" = "$TEMPORAL_VERSION" ]; then
    echo "$gobin/temporal"; return
  fi
  mkdir -p "$gobin"
  log "building the Temporal CLI v$TEMPORAL_VERSION (once, ~3 min)"
  GOBIN="$gobin" GOFLAGS= go install "github.com/temporalio/cli/cmd/temporal@v$TEMPORAL_VERSION" >&2 ||
    die "could not build the Temporal CLI (go install github.com/temporalio/cli/cmd/temporal@v$TEMPORAL_VERSION)"
  [ -x "$gobin/temporal" ] || die "the Temporal CLI build did not produce $gobin/temporal"
  echo "$TEMPORAL_VERSION" >"$gobin/temporal.version"
  echo "$gobin/temporal"
}

start_temporal() {
  local bin; bin=$(temporal_bin) || exit 1
  if "$bin" operator cluster health --address 127.0.0.1:7233 >/dev/null 2>&1; then return; fi
  log "starting the Temporal dev server (UI on http://127.0.0.1:8233)"
  # WAL without fsync per commit: a dev server's history survives a crash of the server,
  # not of the machine, and every workflow step stops paying for a disk sync.
  # The dev server has one history shard, and history reads each shard's transfer queue
  # (the tasks that hand workflow and activity tasks to matching) at most 20 times a
  # second by default: past a short burst, every workflow or activity task then waited
  # about 47 ms for a worker, even with one draft in flight. 1000 lifts that cap.
  # One partition per task queue: with the default four, a task written to a partition
  # none of the worker's polls waits on is forwarded to another at most ten a second, and
  # a first workflow task sometimes waited 2 s for a worker. One partition carries far more
  # tasks a second than one machine's workers take.
  nohup "$bin" server start-dev --ip 127.0.0.1 --db-filename "$data/temporal.db" \
    --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=off \
    --dynamic-config-value system.enableActivityEagerExecution=true \
    --dynamic-config-value history.transferProcessorMaxPollRPS=1000 \
    --dynamic-config-value matching.numTaskqueueReadPartitions=1 \
    --dynamic-config-value matching.numTaskqueueWritePartitions=1 \
    --log-level warn >"$data/temporal.log" 2>&1 3>&- &
  echo $! >"$data/temporal.pid"
  for _ in $(seq 1 150); do
    "$bin" operator cluster health --address 127.0.0.1:7233 >/dev/null 2>&1 && return
    sleep 0.2
  done
  die "Temporal dev server did not become healthy in 30 s; see $data/temporal.log"
}

if [ -n "${DATABASE_URL:-}" ] && [ -n "${TEMPORAL_ADDRESS:-}" ]; then
  log "using DATABASE_URL and TEMPORAL_ADDRESS from the environment; starting nothing"
else
  start_postgres
  start_temporal
  DATABASE_URL="postgres://$DB_USER:$DB_PASS@127.0.0.1:$DB_PORT/supportdraft?sslmode=disable"
  TEST_DATABASE_URL="postgres://$DB_USER:$DB_PASS@127.0.0.1:$DB_PORT/supportdraft_test?sslmode=disable"
  TEMPORAL_ADDRESS=127.0.0.1:7233
  SUPPORTDRAFT_APP_ROLE=$APP_USER
  TEST_APP_DATABASE_URL="postgres://$APP_USER:$APP_PASS@127.0.0.1:$DB_PORT/supportdraft_test?sslmode=disable"
fi
{
  echo "export DATABASE_URL='$DATABASE_URL'"
  echo "export TEST_DATABASE_URL='${TEST_DATABASE_URL:-$DATABASE_URL}'"
  echo "export TEMPORAL_ADDRESS='$TEMPORAL_ADDRESS'"
  if [ -n "${SUPPORTDRAFT_APP_ROLE:-}" ]; then echo "export SUPPORTDRAFT_APP_ROLE='$SUPPORTDRAFT_APP_ROLE'"; fi
  if [ -n "${TEST_APP_DATABASE_URL:-}" ]; then echo "export TEST_APP_DATABASE_URL='$TEST_APP_DATABASE_URL'"; fi
  if [ -x "$data/bin/temporal" ]; then echo "export SUPPORTDRAFT_TEMPORAL_CLI='$data/bin/temporal'"; fi
} >&3
log "ready"
