#!/usr/bin/env bash
# record.sh records the lifecycle history the replay test replays: draft, new revision,
# stale send-check, edit, rebuild, ok send-check, discard. Run it against a running
# `supportdraft dev` after an intended change to the workflow's commands, and commit the
# new file with that change.
set -euo pipefail
cd "$(dirname "$0")/../.."
A=${SUPPORTDRAFT_API_URL:-http://127.0.0.1:8080}
ID=T-REPLAY-$(date +%s)
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
tk() { printf '{"ticket_id":"%s","revision":%s,"updated_at":"%s","account":{"id":"A-1","plan":"%s","region":"eu","locale":"en"},"channel":"email","subject":"Refund","messages":[{"author":"customer","at":"%s","body":"%s"}]}' "$ID" "$1" "$now" "$2" "$now" "$3"; }
post() { curl -sf -XPOST "$A$1" -H 'Content-Type: application/json' ${2:+-d "$2"} >/dev/null; }
post /v1/drafts "$(tk 1 pro 'Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?')"
post "/v1/tickets/$ID/revisions" "$(tk 2 business 'We upgraded to Business meanwhile. Still refundable?')"
post "/v1/drafts/$ID/send-check" '{"text":"Hi"}'
post "/v1/drafts/$ID/edit" '{"text":"Hi, we will refund you within 30 days."}'
post "/v1/drafts/$ID/rebuild"
post "/v1/drafts/$ID/send-check" '{"text":"Hi"}'
post "/v1/drafts/$ID/discard"
"${SUPPORTDRAFT_TEMPORAL_CLI:-.data/bin/temporal}" workflow show -w "draft/$ID" --output json > workflows/testdata/histories/lifecycle.json
echo "recorded draft/$ID into workflows/testdata/histories/lifecycle.json"
