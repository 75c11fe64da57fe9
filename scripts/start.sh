#!/usr/bin/env bash
# `pnpm start`: builds what the API needs, installs the embedded database (EMBEDDED_DATABASE) when
# no MONGODB_URI is given, then runs the whole API until Ctrl-C or SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${MONGODB_URI:-}" ]; then
  if [ "${EMBEDDED_DATABASE:-ferretdb}" = mongo-java-server ]; then
    bash scripts/install-mongo-java-server.sh
  else
    bash scripts/install-ferretdb.sh
  fi
fi
DO_NOT_TRACK=1 pnpm exec turbo run build --filter='@petstore/stack...' --output-logs=errors-only
exec node packages/stack/dist/main.js
