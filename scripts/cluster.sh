#!/usr/bin/env bash
# cluster.sh up|dev-up|down|status: supportdraft on a Temporal cluster instead of the dev server.
# Temporal v1.30.4 (built once from its Go module into .data/) runs as four processes —
# frontend, history, matching and internal-worker — persisting to Postgres: its own
# databases (temporal_cluster, temporal_cluster_visibility) in the Postgres 15 that
# scripts/services.sh runs, created and migrated with Temporal's sql tool from the schema
# the module ships. Then two supportdraft workers and two API replicas, on their own
# database (supportdraft_cluster, sample corpus imported). `up` is idempotent and prints the
# environment as export lines on stdout (progress on stderr), like services.sh:
#   eval "$(scripts/cluster.sh up)"   # TEMPORAL_ADDRESS, SUPPORTDRAFT_CLUSTER_API, …
# Ports: frontend 7333 (gRPC), history 7334, matching 7335, internal-worker 7339,
# membership 6333-6339; APIs 8181 and 8182. The dev server on 7233 is left alone.
# `dev-up` starts the same two workers and two replicas on the dev server instead (its
# namespace supportdraft-load, database supportdraft_loaddev, APIs 8281 and 8282), so that
# `supportdraft bench load --target` compares the two Temporal engines and nothing else.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
data="${SUPPORTDRAFT_DATA:-$root/.data}"
dir="$data/cluster"
exec 3>&1 1>&2
log() { printf 'cluster: %s\n' "$*" >&2; }
die() { printf 'cluster: error: %s\n' "$*" >&2; exit 1; }

SERVER_VERSION=1.30.4
bin="$data/temporal-server-v$SERVER_VERSION"
FRONTEND=127.0.0.1:7333
APIS=(127.0.0.1:8181 127.0.0.1:8182)
DEV_APIS=(127.0.0.1:8281 127.0.0.1:8282)
DEV_NAMESPACE=supportdraft-load
SERVICES=(history matching frontend worker)
DB_USER=supportdraft
DB_PASS=supportdraft
DB_PORT=${SUPPORTDRAFT_PG_PORT:-5432}
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }
export PGOPTIONS='-c client_min_messages=warning'

# build puts the server and its sql tool into .data once; v1.31 and later need a newer Go.
build() {
  [ -x "$bin/server" ] && [ -x "$bin/sql" ] && return
  log "building Temporal server v$SERVER_VERSION and its sql tool (once, a few minutes)"
  mkdir -p "$bin"
  (cd "$root" && GOBIN="$bin" GOFLAGS= go install "go.temporal.io/server/cmd/server@v$SERVER_VERSION" \
    "go.temporal.io/server/cmd/tools/sql@v$SERVER_VERSION") || die "could not build Temporal server v$SERVER_VERSION"
}

# module_dir is where the Go module cache holds the server's schema files.
module_dir() {
  (cd "$root" && GOFLAGS= go mod download -json "go.temporal.io/server@v$SERVER_VERSION") |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'
}

create_db() {
  if [ -z "$(as_postgres psql -p "$DB_PORT" -Atqc "select 1 from pg_database where datname='$1'")" ]; then
    as_postgres createdb -p "$DB_PORT" -O $DB_USER "$1"
  fi
  as_postgres psql -p "$DB_PORT" -d "$1" -qc "$2" >/dev/null
}

# schema creates or upgrades one of Temporal's databases to the version the module ships.
schema() {
  local db=$1 kind=$2 mod=$3
  local tool=("$bin/sql" --plugin postgres12 --ep 127.0.0.1 -p "$DB_PORT" -u $DB_USER --pw $DB_PASS --db "$db")
  if [ -z "$(as_postgres psql -p "$DB_PORT" -d "$db" -Atqc "select to_regclass('schema_version')")" ]; then
    "${tool[@]}" setup-schema -v 0.0 >>"$dir/schema.log" 2>&1 || die "setup-schema of $db failed; see $dir/schema.log"
  fi
  "${tool[@]}" update-schema -d "$mod/schema/postgresql/v12/$kind/versioned" >>"$dir/schema.log" 2>&1 ||
    die "update-schema of $db failed; see $dir/schema.log"
}

config() {
  mkdir -p "$dir/config/dynamicconfig"
  cat >"$dir/config/dynamicconfig/cluster.yaml" <<'YAML'
system.enableActivityEagerExecution:
  - value: true
frontend.enableUpdateWorkflowExecution:
  - value: true
# History reads each shard's transfer queue at most 20 times a second by default; with four
# shards every task handed to matching then waits up to 50 ms (see scripts/services.sh).
history.transferProcessorMaxPollRPS:
  - value: 1000
# One partition per task queue, as on the dev server: more (the default is four) spread a
# busy queue over several matching hosts, and this cluster has one; with four, a task
# written to a partition no poll waits on is forwarded to another at most ten a second.
matching.numTaskqueueReadPartitions:
  - value: 1
matching.numTaskqueueWritePartitions:
  - value: 1
YAML
  local sql
  sql() { cat <<YAML
      sql:
        pluginName: postgres12
        databaseName: $1
        connectAddr: 127.0.0.1:$DB_PORT
        connectProtocol: tcp
        user: $DB_USER
        password: $DB_PASS
        maxConns: $2
        maxIdleConns: $2
        maxConnLifetime: 1h
YAML
  }
  cat >"$dir/config/cluster.yaml" <<YAML
log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:
$(sql temporal_cluster 8)
    visibility:
$(sql temporal_cluster_visibility 2)
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
services:
  frontend:
    rpc: {grpcPort: 7333, membershipPort: 6333, bindOnLocalHost: true, httpPort: 7343}
  history:
    rpc: {grpcPort: 7334, membershipPort: 6334, bindOnLocalHost: true}
  matching:
    rpc: {grpcPort: 7335, membershipPort: 6335, bindOnLocalHost: true}
  worker:
    rpc: {grpcPort: 7339, membershipPort: 6339, bindOnLocalHost: true}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: $FRONTEND
dcRedirectionPolicy:
  policy: noop
dynamicConfigClient:
  filepath: $dir/config/dynamicconfig/cluster.yaml
  pollInterval: 10s
YAML
}

running() { [ -f "$dir/$1.pid" ] && kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; }

start() { # name, command…
  local name=$1; shift
  running "$name" && return
  nohup "$@" >"$dir/$name.log" 2>&1 3>&- &
  echo $! >"$dir/$name.pid"
}

healthy() { "$data/bin/temporal" operator cluster health --address $FRONTEND >/dev/null 2>&1; }

metadata_saved() {
  [ -n "$(as_postgres psql -p "$DB_PORT" -d temporal_cluster -Atqc 'select 1 from cluster_metadata_info limit 1')" ]
}

# namespace registers a Temporal namespace if it is missing. A new namespace is in the
# database at once, but Temporal's services learn of it when they next refresh their
# namespace cache (every 10 s by default): a worker started before that exits ("Namespace
# … is not found" when it creates its purge schedule), as dev-up's did once on a fresh
# dev server. So after registering one it waits out a refresh.
namespace() { # frontend, namespace
  "$data/bin/temporal" operator namespace describe --address "$1" -n "$2" >/dev/null 2>&1 && return
  "$data/bin/temporal" operator namespace create --address "$1" -n "$2" --retention 72h >/dev/null ||
    die "could not register the namespace $2 on $1"
  log "registered the namespace $2; waiting 11 s for Temporal's services to load it"
  sleep 11
}

app_url() { echo "postgres://$DB_USER:$DB_PASS@127.0.0.1:$DB_PORT/$1?sslmode=disable"; }

# replicas builds supportdraft, prepares its database (migrations, sample corpus) and starts
# two workers and two API replicas named PREFIXworker-N and PREFIXapi-N on one Temporal.
replicas() { # prefix, frontend, namespace, database URL, API addresses…
  local prefix=$1 frontend=$2 ns=$3 app=$4 i; shift 4
  local apis=("$@")
  (cd "$root" && go build -o "$dir/supportdraft" ./cmd/supportdraft) || die "could not build supportdraft"
  DATABASE_URL=$app "$dir/supportdraft" migrate >/dev/null
  DATABASE_URL=$app "$dir/supportdraft" policy import "$root/corpus/sample" >/dev/null
  for i in 1 2; do
    start "${prefix}worker-$i" env DATABASE_URL="$app" TEMPORAL_ADDRESS="$frontend" TEMPORAL_NAMESPACE="$ns" \
      "$dir/supportdraft" worker
  done
  # The replicas serve `supportdraft bench load`: one caller with one token sending
  # thousands of drafts, so the per-caller rate limit is off here.
  for i in 1 2; do
    start "${prefix}api-$i" env DATABASE_URL="$app" TEMPORAL_ADDRESS="$frontend" TEMPORAL_NAMESPACE="$ns" \
      SUPPORTDRAFT_RATE_LIMIT=0 SUPPORTDRAFT_HTTP_ADDR="${apis[$((i - 1))]}" "$dir/supportdraft" api
  done
  for i in 1 2; do
    for _ in $(seq 1 100); do curl -fsS "http://${apis[$((i - 1))]}/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
    curl -fsS "http://${apis[$((i - 1))]}/healthz" >/dev/null 2>&1 ||
      die "API replica on ${apis[$((i - 1))]} did not answer; see $dir/${prefix}api-$i.log"
  done
}

up() {
  local exports; exports=$(SUPPORTDRAFT_DATA="$data" "$root/scripts/services.sh")
  eval "$exports"
  build
  mkdir -p "$dir"
  local mod; mod=$(module_dir); [ -d "$mod/schema" ] || die "no schema in the Temporal module at '$mod'"
  create_db temporal_cluster 'SELECT 1'
  create_db temporal_cluster_visibility 'CREATE EXTENSION IF NOT EXISTS btree_gin'
  create_db supportdraft_cluster 'CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS btree_gist'
  schema temporal_cluster temporal "$mod"
  schema temporal_cluster_visibility visibility "$mod"
  config
  # On an empty database every service writes the cluster's metadata as it starts; started
  # together, all but one fail ("SaveClusterMetadata encountered version mismatch") and
  # stay down. History goes first, the others once the metadata is there.
  local s
  for s in "${SERVICES[@]}"; do
    start "temporal-$s" "$bin/server" --config-file "$dir/config/cluster.yaml" --allow-no-auth start --service "$s"
    if [ "$s" = history ]; then
      for _ in $(seq 1 150); do metadata_saved && break; sleep 0.2; done
      metadata_saved || die "the history service wrote no cluster metadata in 30 s; see $dir/temporal-history.log"
    fi
  done
  for _ in $(seq 1 150); do healthy && break; sleep 0.4; done
  healthy || die "the cluster's frontend did not become healthy in 60 s; see $dir/temporal-*.log"
  namespace $FRONTEND default
  local app; app=$(app_url supportdraft_cluster)
  replicas "" $FRONTEND default "$app" "${APIS[@]}"
  {
    echo "export TEMPORAL_ADDRESS='$FRONTEND'"
    echo "export SUPPORTDRAFT_CLUSTER_DATABASE_URL='$app'"
    echo "export SUPPORTDRAFT_CLUSTER_API='http://${APIS[0]},http://${APIS[1]}'"
  } >&3
  log "up: frontend $FRONTEND, APIs ${APIS[*]}, logs in $dir"
}

# dev_up starts the cluster's workers and replicas on the dev server that services.sh runs.
dev_up() {
  # The dev server's own address, even in a shell where `up` exported the cluster's.
  local exports; exports=$(env -u DATABASE_URL -u TEMPORAL_ADDRESS SUPPORTDRAFT_DATA="$data" "$root/scripts/services.sh")
  eval "$exports"
  mkdir -p "$dir"
  create_db supportdraft_loaddev 'CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS btree_gist'
  namespace "$TEMPORAL_ADDRESS" $DEV_NAMESPACE
  local app; app=$(app_url supportdraft_loaddev)
  replicas dev- "$TEMPORAL_ADDRESS" $DEV_NAMESPACE "$app" "${DEV_APIS[@]}"
  {
    echo "export SUPPORTDRAFT_DEV_DATABASE_URL='$app'"
    echo "export SUPPORTDRAFT_DEV_API='http://${DEV_APIS[0]},http://${DEV_APIS[1]}'"
  } >&3
  log "dev-up: workers and APIs ${DEV_APIS[*]} on the dev server $TEMPORAL_ADDRESS (namespace $DEV_NAMESPACE), logs in $dir"
}

down() {
  local name
  for name in dev-api-1 dev-api-2 dev-worker-1 dev-worker-2 \
    api-1 api-2 worker-1 worker-2 temporal-frontend temporal-worker temporal-matching temporal-history; do
    if running "$name"; then
      kill "$(cat "$dir/$name.pid")"
      for _ in $(seq 1 50); do running "$name" || break; sleep 0.2; done
    fi
    rm -f "$dir/$name.pid"
  done
  log "down (databases kept; drop temporal_cluster* and supportdraft_cluster to start empty)"
}

# show prints whether one process runs, and fails if it does not.
show() {
  if running "$1"; then printf '%-18s running (pid %s)\n' "$1" "$(cat "$dir/$1.pid")" >&3; else printf '%-18s stopped\n' "$1" >&3; return 1; fi
}

status() {
  local name rc=0
  for name in temporal-history temporal-matching temporal-frontend temporal-worker worker-1 worker-2 api-1 api-2; do
    show "$name" || rc=1
  done
  for name in dev-worker-1 dev-worker-2 dev-api-1 dev-api-2; do
    [ -f "$dir/$name.pid" ] || continue # dev-up was not run
    show "$name" || rc=1
  done
  if healthy; then echo "frontend $FRONTEND: SERVING" >&3; else echo "frontend $FRONTEND: not answering" >&3; rc=1; fi
  return $rc
}

case "${1:-}" in
  up) up ;;
  dev-up) dev_up ;;
  down) down ;;
  status) status ;;
  *) die "usage: scripts/cluster.sh up|dev-up|down|status" ;;
esac
