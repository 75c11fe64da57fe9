#!/usr/bin/env bash
# Runs the packages whose tests take their database from startMongo() again, with the databases
# in containers (the end-to-end suites run the stack's embedded database either way): starts a
# Docker daemon when none answers (installing Debian's docker.io if needed), builds the FerretDB
# image locally, runs the tests, then removes the containers and stops the daemon it started.
set -euo pipefail
cd "$(dirname "$0")/.."

log_dir=$(mktemp -d)
dockerd_pid=

cleanup() {
  if docker info >/dev/null 2>&1; then
    ids=$(docker ps -aq --filter label=petstore.testkit)
    [ -z "$ids" ] || docker rm -f $ids >/dev/null
  fi
  if [ -n "$dockerd_pid" ]; then
    kill "$dockerd_pid" 2>/dev/null || true
    wait "$dockerd_pid" 2>/dev/null || true
  fi
  rm -rf "$log_dir"
}
trap cleanup EXIT

unavailable() {
  echo "DOCKER LEG NOT RUN: $1" >&2
  [ -f "$log_dir/dockerd.log" ] && tail -n 20 "$log_dir/dockerd.log" >&2
  exit 0
}

if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null; then
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y docker.io; } \
      >"$log_dir/apt.log" 2>&1 || unavailable "could not install docker.io: $(tail -n 3 "$log_dir/apt.log")"
  fi
  dockerd >"$log_dir/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$dockerd_pid" 2>/dev/null || unavailable "dockerd exited during start-up"
    sleep 1
  done
  docker info >/dev/null 2>&1 || unavailable "dockerd did not answer within 60 s"
fi

image=$(bash scripts/build-ferretdb-image.sh)
# The daemon runs on this machine: containers' published ports are on its loopback.
export PETSTORE_TEST_MONGO_IMAGE=$image TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
pnpm exec turbo run test --force --filter='...@petstore/testkit' \
  --filter='!@petstore/stack' --filter='!@petstore/tests' --filter='!@petstore/bench'
