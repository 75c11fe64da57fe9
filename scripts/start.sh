#!/usr/bin/env bash
# `pnpm start`: builds what the API needs, installs the embedded database when no MONGODB_URI is
# given, then runs the whole API until Ctrl-C or SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${MONGODB_URI:-}" ] || bash scripts/install-ferretdb.sh
DO_NOT_TRACK=1 pnpm exec turbo run build --filter='@petstore/stack...' --output-logs=errors-only
exec node packages/stack/dist/main.js
