#!/usr/bin/env bash
# Builds the image deploy/docker/Dockerfile compiles the services in (its BUILD_IMAGE) for
# machines whose containers cannot reach the package registry: the given Node image (e.g. from
# scripts/build-node-base-image.sh) plus pnpm at the version package.json names and a pnpm store
# holding every package of pnpm-lock.yaml, fetched here on the host, with pnpm set to work
# offline. Kept per lockfile and base image, so later runs reuse it. Prints the image name.
#   bash scripts/build-node-build-image.sh "$(bash scripts/build-node-base-image.sh)"
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:?usage: build-node-build-image.sh NODE_IMAGE}
cd "$root"

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  echo "build-node-build-image: pnpm $pnpm_version is needed (npm install --global pnpm@$pnpm_version)" >&2
  exit 1
fi
pnpm_package=$(cd "$(dirname "$(readlink -f "$(command -v pnpm)")")/.." && pwd)

key=$({
  docker image inspect --format '{{.Id}}' "$base"
  echo "$pnpm_version"
  cat package.json pnpm-workspace.yaml pnpm-lock.yaml .pnpmfile.cjs
} | sha256sum | cut -c1-16)
image=petstore/node-build:$key
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "$image"
  exit 0
fi

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp -R "$pnpm_package" "$context/pnpm"
# `pnpm fetch` needs only the lockfile and the workspace files (the install hook among them).
mkdir "$context/fetch"
cp package.json pnpm-workspace.yaml pnpm-lock.yaml .pnpmfile.cjs "$context/fetch/"
(cd "$context/fetch" && CI=true pnpm fetch --store-dir "$context/store") >&2
rm -rf "$context/fetch"

cat > "$context/Dockerfile" <<DOCKERFILE
FROM $base
COPY pnpm /usr/local/lib/node_modules/pnpm
RUN ln -s ../lib/node_modules/pnpm/bin/pnpm.cjs /usr/local/bin/pnpm
COPY store /pnpm/store
ENV npm_config_store_dir=/pnpm/store npm_config_offline=true
DOCKERFILE
docker build --quiet --tag "$image" "$context" >&2

# Earlier ones (another lockfile or base) are no longer needed.
docker image ls petstore/node-build --format '{{.Repository}}:{{.Tag}}' | grep -vxF "$image" |
  xargs -r docker rmi >/dev/null 2>&1 || true
echo "$image"
