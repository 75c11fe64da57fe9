#!/usr/bin/env bash
# `pnpm start`: builds what the API needs, installs mongod (once) when no MONGODB_URI is given,
# then runs the whole API until Ctrl-C or SIGTERM.
# package.json runs this with `exec` and it ends by exec-ing the stack, so pnpm's own child is the
# stack's process: a shell in between would die of a Ctrl-C's SIGINT at once, and pnpm would
# report a failure while the stack was still stopping. The stack stops everything and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${MONGODB_URI:-}" ]; then
  bash scripts/install-mongod.sh
fi
DO_NOT_TRACK=1 pnpm exec turbo run build --filter='@petstore/stack...' --output-logs=errors-only
exec node packages/stack/dist/main.js
