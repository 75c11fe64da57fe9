#!/usr/bin/env bash
# Builds a local MongoDB-compatible image, FROM scratch, for the testcontainers runs and the
# service images' walkthrough (no image registry is needed): the test database's jar
# (scripts/install-mongo-java-server.sh) on a Java runtime that jlink makes from this machine's
# JDK with only the modules the jar uses, plus the shared libraries `ldd` lists for it. Serves
# port 27017 on all interfaces, data in memory. Prints the image name; all else goes to stderr.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's:.*<mongo-java-server.version>\(.*\)</mongo-java-server.version>.*:\1:p' \
  "$root/packages/testkit/mongo-java-server/pom.xml")
image=${1:-petstore/mongo-java-server:$version}

bash "$root/scripts/install-mongo-java-server.sh" >&2
jlink=$(dirname "$(readlink -f "$(command -v java)")")/jlink
if [ ! -x "$jlink" ]; then
  echo "build-mongo-java-server-image: no jlink beside java (a JDK >= 17 is needed)" >&2
  exit 1
fi

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
rootfs="$context/rootfs"
mkdir -p "$rootfs/opt"
mkdir -m 1777 "$rootfs/tmp"
cp "$root/.tools/mongo-java-server/petstore-testdb.jar" "$rootfs/opt/petstore-testdb.jar"

# jdeps also names the modules of H2's SQL engine and tools, which the MVStore the jar uses never
# loads; the server needs java.management (uptime in serverStatus) and jdk.unsupported (Netty,
# signal handling).
"$jlink" --add-modules java.base,java.management,jdk.unsupported --output "$rootfs/opt/java" \
  --strip-debug --no-man-pages --no-header-files --compress=2 >&2
find "$rootfs/opt/java" \( -name '*.so' -o -path '*/bin/java' \) -exec ldd {} + |
  awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u |
  while read -r library; do
    case $library in "$rootfs"/*) continue ;; esac
    [ -e "$rootfs$library" ] || cp -L --parents "$library" "$rootfs"
  done

cat > "$context/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY rootfs /
ENV LISTEN_HOST=0.0.0.0
USER 65534:65534
EXPOSE 27017
ENTRYPOINT ["/opt/java/bin/java", "-XX:+ExitOnOutOfMemoryError", \
  "-jar", "/opt/petstore-testdb.jar", "27017"]
DOCKERFILE
docker build --quiet --tag "$image" "$context" >&2
echo "$image"
