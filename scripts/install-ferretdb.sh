#!/usr/bin/env bash
# Builds the embedded database (FerretDB, static, SQLite storage) into .tools/bin once.
# The module source comes from the Go module proxy; build/version/version.txt is a generated
# file absent from the published module, so it is written before building.
set -euo pipefail

version=v1.24.2
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/bin/ferretdb"

if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "version: $version"; then
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "install-ferretdb: Go >= 1.24 is needed to build the embedded database (pnpm test always needs it; pnpm start too, unless MONGODB_URI names a MongoDB)" >&2
  exit 1
fi

echo "install-ferretdb: building FerretDB $version into .tools/bin (once)" >&2
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

module_dir=$(cd "$work" && go mod download -json "github.com/FerretDB/FerretDB@$version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
cp -R "$module_dir" "$work/src"
chmod -R u+w "$work/src"
echo "$version" > "$work/src/build/version/version.txt"

mkdir -p "$(dirname "$bin")"
(cd "$work/src" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -o "$bin.tmp" ./cmd/ferretdb)
mv "$bin.tmp" "$bin"
"$bin" --version >&2
