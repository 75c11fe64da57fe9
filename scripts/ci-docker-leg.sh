#!/usr/bin/env bash
# CI's Docker leg; fails (non-zero) whenever any part of it cannot run:
#   1. a Docker daemon: the one that answers, or one started here (installing Debian's docker.io
#      if needed), started again should it go away between the parts;
#   2. the database suites of the shared packages again with their databases in containers, on the
#      mongod image built locally (scripts/build-mongod-image.sh), each a one-node replica set: the
#      testkit, which starts them, and service-kit (connections, transactions, the outbox). The
#      services' suites use only these two to reach a database, and the test command runs them on
#      the same mongod;
#   3. the service images, run and walked through (scripts/test-service-images.sh).
# Removes the containers it made and stops the daemon it started.
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

fail() {
  echo "DOCKER LEG FAILED: $1" >&2
  [ -f "$log_dir/dockerd.log" ] && tail -n 20 "$log_dir/dockerd.log" >&2
  exit 1
}

ensure_docker() {
  docker info >/dev/null 2>&1 && return 0
  if [ -n "$dockerd_pid" ] && kill -0 "$dockerd_pid" 2>/dev/null; then
    fail "the Docker daemon started here no longer answers"
  fi
  if ! command -v dockerd >/dev/null; then
    echo "::: installing Debian's docker.io"
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y docker.io; } \
      >"$log_dir/apt.log" 2>&1 || fail "could not install docker.io: $(tail -n 3 "$log_dir/apt.log")"
  fi
  echo "::: starting dockerd"
  dockerd >>"$log_dir/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return 0
    kill -0 "$dockerd_pid" 2>/dev/null || fail "dockerd exited during start-up"
    sleep 1
  done
  fail "dockerd did not answer within 60 s"
}

ensure_docker
image=$(bash scripts/build-mongod-image.sh) || fail "could not build the mongod image"
# The daemon runs on this machine: containers' published ports are on its loopback.
export PETSTORE_TEST_MONGO_IMAGE=$image TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
pnpm exec turbo run test --force --filter=@petstore/testkit --filter=@petstore/service-kit ||
  fail "the database tests through testcontainers failed"

ensure_docker
bash scripts/test-service-images.sh || fail "the service images did not build, run or pass the walkthrough"
