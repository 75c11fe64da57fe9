#!/usr/bin/env bash
# Sums vitest's "Tests  N failed | M passed" lines of the given logs into one closing line.
set -euo pipefail
sed 's/\x1b\[[0-9;]*m//g' "$@" | awk '
  /Tests +[0-9]/ {
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) ~ /^passed/) passed += $i
      if ($(i + 1) ~ /^failed/) failed += $i
    }
  }
  END { printf "%d passed, %d failed\n", passed, failed }'
