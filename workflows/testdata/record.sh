#!/usr/bin/env bash
# record.sh records the lifecycle history the replay test replays (see record/main.go for
# the steps) against the services scripts/services.sh runs, and saves it as
# testdata/histories/lifecycle-review.json. Run it after an intended change to the
# workflow's commands, and commit the new file with that change; keep the older histories,
# which the workflow must still replay.
set -euo pipefail
cd "$(dirname "$0")/../.."
eval "$(scripts/services.sh)"
ID=$(go run ./workflows/testdata/record)
"${SUPPORTDRAFT_TEMPORAL_CLI:-.data/bin/temporal}" workflow show -w "$ID" --output json > workflows/testdata/histories/lifecycle-review.json
echo "recorded $ID into workflows/testdata/histories/lifecycle-review.json"
