#!/usr/bin/env bash
# Validates the deployment files, offline:
#   1. renders deploy/kubernetes/base and every overlay with kustomize;
#   2. checks every rendered object with kubeconform, strict (unknown fields and duplicate keys
#      fail), against JSON schemas made from Kubernetes' own OpenAPI document, for the oldest and
#      the newest Kubernetes the manifests are meant for;
#   3. lints compose.yaml with Docker Compose v2 (`docker-compose config`).
# The tools are built with Go from the Go module proxy, and the schemas generated, into
# .tools/deploy the first time (a few minutes, most of it building Compose); later runs take
# seconds. Anything that cannot run stops the script with a non-zero status and says why.
set -euo pipefail

KUSTOMIZE_VERSION=v5.8.2 # v5.8.3 needs Go 1.27
KUBECONFORM_VERSION=v0.8.0
COMPOSE_VERSION=v2.40.3
KUBERNETES_VERSIONS=${KUBERNETES_VERSIONS:-v1.34.4 v1.37.2}

root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools/deploy"
bin="$tools/bin"
converter="$root/deploy/tools/openapi-to-json-schemas.py"

fail() {
  echo "validate-deploy: FAILED: $*" >&2
  exit 1
}
trap 'echo "validate-deploy: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

# Go's own installer puts it in /usr/local/go, which a minimal PATH leaves out.
command -v go >/dev/null || [ ! -x /usr/local/go/bin/go ] || PATH="/usr/local/go/bin:$PATH"
for command in go python3; do
  command -v "$command" >/dev/null || fail "$command is needed (Go >= 1.26 builds the tools, Python 3 makes the schemas)"
done

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# Go settings for every build: no workspace, no VCS stamping, nothing from the caller's GOFLAGS.
export GOWORK=off GOFLAGS=-buildvcs=false CGO_ENABLED=0

# The directory of a module in the module cache, downloaded through the Go module proxy.
module_dir() {
  local json
  json=$(cd "$work" && go mod download -json "$1") ||
    fail "could not download the Go module $1: $(printf '%s' "$json" | grep '"Error"' || true)"
  printf '%s' "$json" | python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])'
}

# installed NAME VERSION COMMAND...: whether .tools/deploy/bin/NAME COMMAND prints VERSION.
installed() {
  local name=$1 version=$2 printed
  shift 2
  [ -x "$bin/$name" ] && printed=$("$bin/$name" "$@" 2>/dev/null) && [ "$printed" = "$version" ]
}

mkdir -p "$bin"
if ! installed kustomize "$KUSTOMIZE_VERSION" version; then
  echo "validate-deploy: building kustomize $KUSTOMIZE_VERSION (once)" >&2
  (cd "$work" && GOBIN="$bin" go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION") ||
    fail "could not build kustomize $KUSTOMIZE_VERSION"
  installed kustomize "$KUSTOMIZE_VERSION" version || fail "kustomize does not report $KUSTOMIZE_VERSION"
fi
if ! installed kubeconform "$KUBECONFORM_VERSION" -v; then
  echo "validate-deploy: building kubeconform $KUBECONFORM_VERSION (once)" >&2
  (cd "$work" && GOBIN="$bin" go install -ldflags "-X main.version=$KUBECONFORM_VERSION" \
    "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION") ||
    fail "could not build kubeconform $KUBECONFORM_VERSION"
  installed kubeconform "$KUBECONFORM_VERSION" -v || fail "kubeconform does not report $KUBECONFORM_VERSION"
fi
if ! installed docker-compose "${COMPOSE_VERSION#v}" version --short; then
  # `go install …@version` refuses this module (its go.mod has exclude directives): build it
  # inside the downloaded module instead, as its Makefile does.
  echo "validate-deploy: building Docker Compose $COMPOSE_VERSION (once, a few minutes)" >&2
  compose_src=$(module_dir "github.com/docker/compose/v2@$COMPOSE_VERSION")
  (cd "$compose_src" && go build -trimpath \
    -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" \
    -o "$bin/docker-compose.tmp" ./cmd) || fail "could not build Docker Compose $COMPOSE_VERSION"
  mv "$bin/docker-compose.tmp" "$bin/docker-compose"
  installed docker-compose "${COMPOSE_VERSION#v}" version --short ||
    fail "docker-compose does not report $COMPOSE_VERSION"
fi

# Schemas per Kubernetes version, remade when the converter changes; the stamp is written last.
converter_sum=$(sha256sum "$converter" | cut -d' ' -f1)
for version in $KUBERNETES_VERSIONS; do
  schemas="$tools/schemas/$version"
  if [ "$(cat "$schemas/.stamp" 2>/dev/null || true)" != "$converter_sum" ]; then
    echo "validate-deploy: making the JSON schemas of Kubernetes $version (once)" >&2
    spec="$(module_dir "k8s.io/kubernetes@$version")/api/openapi-spec/swagger.json"
    [ -f "$spec" ] || fail "no OpenAPI document at $spec"
    rm -rf "$schemas"
    python3 "$converter" "$spec" "$schemas" || fail "could not make the schemas of Kubernetes $version"
    echo "$converter_sum" >"$schemas/.stamp"
  fi
done

# 1. Render.
rendered="$work/rendered"
mkdir -p "$rendered"
for dir in "$root/deploy/kubernetes/base" "$root"/deploy/kubernetes/overlays/*/; do
  dir=${dir%/}
  name=${dir#"$root/deploy/kubernetes/"}
  out="$rendered/${name//\//-}.yaml"
  "$bin/kustomize" build "$dir" >"$out" || fail "kustomize build $name"
  objects=$(grep -c '^kind: ' "$out" || true)
  [ "$objects" -gt 0 ] || fail "kustomize build $name rendered nothing"
  if grep -q '^kind: Secret$' "$out"; then
    fail "$name renders a Secret: secret values stay out of git (deploy/README.md)"
  fi
  echo "validate-deploy: kustomize build $name: $objects objects" >&2
done

# 2. Check against the schemas.
for version in $KUBERNETES_VERSIONS; do
  echo "validate-deploy: kubeconform, strict, Kubernetes $version" >&2
  "$bin/kubeconform" -strict -summary -kubernetes-version "${version#v}" \
    -schema-location "$tools/schemas/$version/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
    "$rendered"/*.yaml || fail "kubeconform found invalid manifests (Kubernetes $version)"
done

# 3. Lint compose.yaml, with the committed .env.example standing in for the gitignored .env.
echo "validate-deploy: docker-compose config" >&2
(cd "$root" && PETSTORE_ENV_FILE=.env.example "$bin/docker-compose" --file compose.yaml config --quiet) ||
  fail "docker-compose config: compose.yaml is invalid"

echo "validate-deploy: OK ($SECONDS s)" >&2
