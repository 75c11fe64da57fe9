#!/usr/bin/env bash
# Builds the test database with per-document atomicity across connections (mongo-java-server,
# in-memory backend; packages/testkit/mongo-java-server) into .tools/mongo-java-server once, as
# one runnable jar. Rebuilt only when its pom.xml or sources change: the stamp beside the jar is
# their checksum, and the pom holds the library's version.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
project="$root/packages/testkit/mongo-java-server"
out="$root/.tools/mongo-java-server"
jar="$out/petstore-testdb.jar"
stamp_file="$out/stamp"

stamp=$(cd "$project" && find pom.xml src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
if [ -f "$jar" ] && [ "$(cat "$stamp_file" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null; then
    echo "install-mongo-java-server: '$tool' is needed to build the test database (Java >= 17 and Maven >= 3.8)" >&2
    exit 1
  fi
done

version=$(sed -n 's:.*<mongo-java-server.version>\(.*\)</mongo-java-server.version>.*:\1:p' "$project/pom.xml")
echo "install-mongo-java-server: building mongo-java-server $version into .tools/mongo-java-server (once)" >&2
(cd "$project" && mvn -q -B -Dstyle.color=never clean package) >&2

mkdir -p "$out"
cp "$project/target/petstore-testdb.jar" "$jar.tmp"
mv "$jar.tmp" "$jar"
echo "$stamp" > "$stamp_file"
