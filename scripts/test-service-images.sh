#!/usr/bin/env bash
# Builds the three service images from deploy/docker/Dockerfile on a Node base built from this
# machine's own Node (nothing is pulled; the packages come from a pnpm store filled here), runs
# one container of each on a network of their own with a container of the mongod image
# (scripts/build-mongod-image.sh), a one-node replica set, as their database, waits for their
# health checks and the gateway's /ready, runs the README walkthrough against the gateway, then
# stops each service and checks it stopped gracefully (exit 0). Prints the images' sizes. Removes
# its containers and network on exit; any failure exits non-zero.
# Needs a Docker daemon (scripts/ci-docker-leg.sh starts one).
set -euo pipefail
cd "$(dirname "$0")/.."

run=petstore-images-$$
services=(pets store gateway)

cleanup() {
  docker ps -aq --filter "label=petstore.run=$run" 2>/dev/null | xargs -r docker rm -f >/dev/null
  docker network rm "$run" >/dev/null 2>&1 || true
}
trap cleanup EXIT

fail() {
  echo "service images: FAILED: $*" >&2
  for name in mongo "${services[@]}"; do
    if docker inspect "$run-$name" >/dev/null 2>&1; then
      echo "--- docker logs $run-$name (last 30 lines)" >&2
      docker logs --tail 30 "$run-$name" >&2 2>&1 || true
    fi
  done
  exit 1
}

# Polls a command, once a second, until it succeeds or the deadline passes.
wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq 1 "$seconds"); do
    "$@" && return 0
    sleep 1
  done
  fail "$what: not within $seconds s"
}

echo "::: images: local Node base, build and database images"
node_image=$(bash scripts/build-node-base-image.sh)
build_image=$(bash scripts/build-node-build-image.sh "$node_image")
database_image=$(bash scripts/build-mongod-image.sh)

for service in "${services[@]}"; do
  echo "::: images: petstore/$service"
  started=$SECONDS
  docker build --quiet --force-rm --file deploy/docker/Dockerfile --tag "petstore/$service" \
    --build-arg "NODE_IMAGE=$node_image" --build-arg "BUILD_IMAGE=$build_image" \
    --build-arg "SERVICE=$service" . >/dev/null || fail "docker build of $service"
  echo "built in $((SECONDS - started)) s"
done
docker image ls --filter 'reference=petstore/*' --format 'table {{.Repository}}:{{.Tag}}\t{{.Size}}'

echo "::: images: mongod, pets, store and the gateway on network $run"
internal_token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
admin_key=psk_$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
docker network create "$run" >/dev/null
docker run --detach --name "$run-mongo" --label "petstore.run=$run" --network "$run" \
  --network-alias mongo --publish 127.0.0.1::27017 "$database_image" >/dev/null
# Its replica set is initiated from here, through the port published on the loopback, with the
# member named as the services reach it.
pnpm exec turbo run build --filter=@petstore/testkit --output-logs=errors-only >/dev/null
mongo_address=$(docker port "$run-mongo" 27017/tcp | head -n 1)
node --input-type=module -e '
  const { initiateReplicaSet } = await import("./packages/testkit/dist/index.js");
  await initiateReplicaSet(process.argv[1], "mongo:27017");
' "mongodb://$mongo_address/?directConnection=true" || fail "the database's replica set was not initiated"

# As the manifests run them: read-only, no capabilities, a writable /tmp.
start_service() {
  local service=$1
  shift
  docker run --detach --name "$run-$service" --label "petstore.run=$run" \
    --network "$run" --network-alias "$service" \
    --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
    --env INTERNAL_TOKEN="$internal_token" --env MONGODB_URI=mongodb://mongo:27017/?replicaSet=petstore \
    --env LOG_LEVEL=warn "$@" "petstore/$service" >/dev/null
}
start_service pets
start_service store --env PETS_URL=http://pets:3001
start_service gateway --env PETS_URL=http://pets:3001 --env STORE_URL=http://store:3002 \
  --env ADMIN_API_KEY="$admin_key" --publish 127.0.0.1::8080
base=http://$(docker port "$run-gateway" 8080/tcp | head -n 1)

healthy() {
  [ "$(docker inspect --format '{{.State.Health.Status}}' "$run-$1")" = healthy ]
}
for service in "${services[@]}"; do
  wait_for "$service healthy (HEALTHCHECK)" 90 healthy "$service"
done
wait_for "gateway /ready?deep=true at $base" 30 curl -sf -o /dev/null "$base/ready?deep=true"
echo "all three healthy; the gateway is ready at $base"

echo "::: images: README walkthrough against the gateway"
walkthrough=$(awk '/^## Walkthrough/ { on = 1 } on && /^```sh$/ { inside = 1; next }
  inside && /^```$/ { exit } inside' README.md)
[ -n "$walkthrough" ] || fail "README.md has no sh block under ## Walkthrough"
# Every request in it fails the block on an error answer (curl --fail-with-body, bash -e).
BASE=$base ADMIN_KEY=$admin_key bash -euo pipefail -c "$walkthrough" ||
  fail "the walkthrough exited with $?"

echo "::: images: graceful stop (docker stop: SIGTERM to node as PID 1)"
for service in gateway store pets; do
  started=$SECONDS
  docker stop --time 30 "$run-$service" >/dev/null
  status=$(docker inspect --format '{{.State.ExitCode}}' "$run-$service")
  echo "$service stopped in $((SECONDS - started)) s, exit code $status"
  [ "$status" = 0 ] || fail "$service exited with $status on SIGTERM"
done
echo "service images: passed"
