#!/usr/bin/env bash
# record.sh NAME [intake] records a history the replay test replays (a draft's whole life,
# or with "intake" one message's funnel; see record/main.go for the steps) against the
# services scripts/services.sh runs, and saves it as testdata/histories/NAME.json. Run it
# after an intended change to a workflow's commands, under a new NAME, and commit the new
# file with that change; keep the older histories, which the workflows must still replay
# (docs/decisions/001-workflow-versioning.md).
set -euo pipefail
name=${1:?usage: record.sh NAME [intake] (the history is saved as workflows/testdata/histories/NAME.json; keep the older ones)}
cd "$(dirname "$0")/../.."
out=workflows/testdata/histories/$name.json
[ ! -e "$out" ] || { echo "record.sh: $out exists: the older histories stay; choose a new NAME" >&2; exit 1; }
eval "$(scripts/services.sh)"
ID=$(go run ./workflows/testdata/record ${2:+"$2"})
"${SUPPORTDRAFT_TEMPORAL_CLI:-.data/bin/temporal}" workflow show -w "$ID" --output json > "$out"
echo "recorded $ID into $out"
