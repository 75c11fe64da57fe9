#!/usr/bin/env bash
# Builds a local MongoDB-compatible image, FROM scratch, holding the static FerretDB binary,
# for the testcontainers runs (no image registry is needed). Prints the image name.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
image=${1:-petstore/ferretdb:1.24.2}

bash "$root/scripts/install-ferretdb.sh"
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$root/.tools/bin/ferretdb" "$context/ferretdb"
mkdir -p "$context/state" "$context/tmp"
cat > "$context/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY ferretdb /ferretdb
COPY state /state
COPY tmp /tmp
ENV DO_NOT_TRACK=1
EXPOSE 27017
ENTRYPOINT ["/ferretdb", "--listen-addr=:27017", "--handler=sqlite", "--sqlite-url=file:/state/", "--state-dir=/state", "--telemetry=disable", "--debug-addr=-"]
DOCKERFILE
docker build --quiet --tag "$image" "$context" >&2
echo "$image"
