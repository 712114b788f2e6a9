#!/usr/bin/env bash
# Generate the OpenAPI v3 schemas of Kubernetes' built-in types from the Go
# sources that Debian ships, with kube-openapi's openapi-gen + builder3.
#
#   generate.sh <suite> <k8s-version> <out-dir>
#   e.g. generate.sh sid 1.36.4 /tmp/k8s-openapi-gen/out/v1.36.4
#
# Writes <out-dir>/openapi-v3.json plus packages.tsv (the exact .debs used) and
# api_violations.report (openapi-gen's API rule report, informational).
#
# Environment:
#   WORK                scratch directory (default /tmp/k8s-openapi-gen); needs ~3 GB per suite
#   APIEXTENSIONS_SUITE take golang-k8s-apiextensions-apiserver-dev from this suite when
#                       <suite> has none (e.g. trixie); its API type packages are overlaid
#                       on the GOPATH. Unset: CustomResourceDefinition is left out.
#   ITEM_DEFAULTS=auto|restore|keep  see "generator version skew" below
#   ALLOW_VERSION_SKEW=1  do not fail when golang-k8s-api-dev is not 0.<minor>.<patch> of <k8s-version>
#   DEBFETCH_STRICT=1   refuse package indexes that do not match the signed InRelease
#   DEBIAN_MIRROR, DEBIAN_KEYRING  see debfetch.mjs
# Needs: node, curl, gpgv, xz, dpkg (dpkg -x only; nothing is installed).
set -euo pipefail

if [ $# -ne 3 ]; then
  sed -n '2,22p' "$0" >&2
  exit 2
fi
SUITE=$1
K8S_VERSION=${2#v}
OUT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/k8s-openapi-gen}
CACHE=$WORK/cache
ROOT=$WORK/root-$SUITE
W=$WORK/work-$SUITE
mkdir -p "$CACHE" "$OUT"

debfetch() { node "$HERE/debfetch.mjs" --cache "$CACHE" "$@"; }
query() { debfetch --suite "$1" --query "$2" 2>/dev/null; }

# --- choose packages -----------------------------------------------------------
GO_PKG=$(query "$SUITE" '^golang-1\.[0-9]+-go$' | sort -V | tail -1 | cut -d' ' -f1)
[ -n "$GO_PKG" ] || { echo "no golang-1.NN-go in $SUITE" >&2; exit 1; }
API_VERSION=$(query "$SUITE" '^golang-k8s-api-dev$' | cut -d' ' -f2)
case "$API_VERSION" in
  "0.${K8S_VERSION#1.}"-*) ;;
  *) echo "golang-k8s-api-dev in $SUITE is '$API_VERSION', not 0.${K8S_VERSION#1.}" >&2
     [ "${ALLOW_VERSION_SKEW:-}" = 1 ] || exit 1 ;;
esac
ROOTS=(golang-k8s-api-dev golang-k8s-apimachinery-dev golang-k8s-kube-openapi-dev)
APIEXT_ROOT=
if [ -n "$(query "$SUITE" '^golang-k8s-apiextensions-apiserver-dev$')" ]; then
  ROOTS+=(golang-k8s-apiextensions-apiserver-dev)
elif [ -n "${APIEXTENSIONS_SUITE:-}" ]; then
  APIEXT_ROOT=$WORK/root-$SUITE-apiextensions-$APIEXTENSIONS_SUITE
else
  echo "WARNING: $SUITE has no golang-k8s-apiextensions-apiserver-dev; CustomResourceDefinition is left out (set APIEXTENSIONS_SUITE)" >&2
fi
if [ -n "$(query "$SUITE" '^golang-k8s-kube-aggregator-dev$')" ]; then
  ROOTS+=(golang-k8s-kube-aggregator-dev)
else
  echo "NOTE: $SUITE has no golang-k8s-kube-aggregator-dev; APIService (apiregistration.k8s.io) is left out" >&2
fi

# --- download, verify, extract ------------------------------------------------
rm -rf "$ROOT" "$W"
debfetch --suite "$SUITE" --root "$ROOT" --manifest "$OUT/packages.tsv" "$GO_PKG" "${ROOTS[@]}"
SRC=$ROOT/usr/share/gocode/src
GOPATH_LIST=$W/gopath
if [ -n "$APIEXT_ROOT" ]; then
  rm -rf "$APIEXT_ROOT"
  # Only the package itself: its API type packages need nothing beyond apimachinery.
  debfetch --suite "$APIEXTENSIONS_SUITE" --root "$APIEXT_ROOT.deb" --manifest "$W.apiext.tsv" \
    --no-deps golang-k8s-apiextensions-apiserver-dev
  mkdir -p "$APIEXT_ROOT/src/k8s.io/apiextensions-apiserver/pkg"
  cp -r "$APIEXT_ROOT.deb/usr/share/gocode/src/k8s.io/apiextensions-apiserver/pkg/apis" \
    "$APIEXT_ROOT/src/k8s.io/apiextensions-apiserver/pkg/"
  rm -rf "$APIEXT_ROOT.deb"
  grep -E '^golang-k8s-apiextensions-apiserver-dev' "$W.apiext.tsv" |
    sed "s/\$/\t(from $APIEXTENSIONS_SUITE, API types only)/" >> "$OUT/packages.tsv"
  GOPATH_LIST=$GOPATH_LIST:$APIEXT_ROOT
fi
GOPATH_LIST=$GOPATH_LIST:$ROOT/usr/share/gocode

# --- Go environment (GOPATH mode, offline) -------------------------------------
GOVER=${GO_PKG#golang-}; GOVER=${GOVER%-go}
export GOROOT=$ROOT/usr/lib/go-$GOVER
export PATH=$GOROOT/bin:$PATH
export GO111MODULE=off GOTOOLCHAIN=local GOFLAGS= GOPROXY=off GOSUMDB=off CGO_ENABLED=0
export GOPATH=$GOPATH_LIST GOCACHE=$W/cache GOBIN=$W/bin
go version

# --- generator version skew: item/map-value defaults ---------------------------
# kube-openapi PR #606 (merged 2026-05) stopped emitting `default` on array items
# and map values. A Kubernetes release whose go.mod pins an older kube-openapi
# (1.36 pins 20260317) still publishes them, so when Debian's kube-openapi is
# newer than that we build openapi-gen from a copy of pkg/generators with the two
# removed generateDefault calls put back (overlay, first on GOPATH).
# ITEM_DEFAULTS=auto (default) | restore | keep
ITEM_DEFAULTS=${ITEM_DEFAULTS:-auto}
GENSRC=$SRC/k8s.io/kube-openapi/pkg/generators/openapi.go
PINNED=$(sed -n 's|^[[:space:]]*k8s.io/kube-openapi v0\.0\.0-\([0-9]\{8\}\).*|\1|p' "$SRC/k8s.io/apimachinery/go.mod" | head -1)
HAS_ITEM_DEFAULTS=$(awk '/^func \(g openAPITypeWriter\) generateSliceProperty/,/^}/' "$GENSRC" | grep -c generateDefault || true)
if [ "$ITEM_DEFAULTS" = auto ]; then
  if [ "$HAS_ITEM_DEFAULTS" = 0 ] && [ -n "$PINNED" ] && [ "$PINNED" -lt 20260509 ]; then ITEM_DEFAULTS=restore; else ITEM_DEFAULTS=keep; fi
fi
echo "kube-openapi pinned by k8s.io/apimachinery: ${PINNED:-?}; generator emits item defaults: $([ "$HAS_ITEM_DEFAULTS" = 0 ] && echo no || echo yes); ITEM_DEFAULTS=$ITEM_DEFAULTS"
if [ "$ITEM_DEFAULTS" = restore ] && [ "$HAS_ITEM_DEFAULTS" = 0 ]; then
  OV=$W/gopath/src/k8s.io/kube-openapi/pkg/generators
  mkdir -p "$OV"
  cp -r "$SRC/k8s.io/kube-openapi/pkg/generators/." "$OV/"
  CALL='	if err := g.generateDefault(t.Elem.CommentLines, t.Elem, false, t.Elem); err != nil {\n		return err\n	}'
  sed -i \
    -e '/^	g.Do("AdditionalProperties: &spec.SchemaOrBool{\\nAllows: true,\\nSchema: &spec.Schema{\\nSchemaProps: spec.SchemaProps{\\n", nil)$/a\'"$CALL" \
    -e '/^	g.Do("Items: &spec.SchemaOrArray{\\nSchema: &spec.Schema{\\nSchemaProps: spec.SchemaProps{\\n", nil)$/a\'"$CALL" \
    "$OV/openapi.go"
  [ "$(grep -c 'g.generateDefault(t.Elem.CommentLines' "$OV/openapi.go")" = 2 ] || { echo "could not restore item defaults in $OV/openapi.go" >&2; exit 1; }
  echo "(ITEM_DEFAULTS=restore: openapi-gen built from a patched copy of kube-openapi/pkg/generators)" >> "$OUT/packages.tsv"
fi

# --- openapi-gen over every package tagged +k8s:openapi-gen= --------------------
# (like kubernetes' hack/update-codegen.sh; test-only packages are skipped)
go install k8s.io/kube-openapi/cmd/openapi-gen
PKGS=()
for base in "$SRC" ${APIEXT_ROOT:+"$APIEXT_ROOT/src"}; do
  while IFS= read -r d; do PKGS+=("${d#"$base"/}"); done < <(
    for top in k8s.io/api k8s.io/apimachinery k8s.io/apiextensions-apiserver k8s.io/kube-aggregator; do
      [ -d "$base/$top" ] || continue
      grep -rl --include='*.go' '+k8s:openapi-gen=' "$base/$top" | grep -v -e '_test\.go$' -e '/testdata/' -e '/testapigroup/' -e '/test/' || true
    done | xargs -r -n1 dirname | sort -u)
done
GEN=$W/gopath/src/k8sopenapi.local/generated/openapi
mkdir -p "$GEN"
"$GOBIN/openapi-gen" \
  --output-dir "$GEN" --output-pkg k8sopenapi.local/generated/openapi --output-file zz_generated.openapi.go \
  --go-header-file "$SRC/k8s.io/kube-openapi/boilerplate/boilerplate.go.txt" \
  --report-filename "$OUT/api_violations.report" \
  "${PKGS[@]}"

# --- scheme: every tagged API package that registers types ---------------------
# kube-apiserver's scheme has all k8s.io/api groups (admission and imagepolicy too)
# but not apidiscovery; plus apiextensions and apiregistration.
DUMP=$W/gopath/src/k8sopenapi.local/dump
mkdir -p "$DUMP"
cp "$HERE/dump/main.go" "$DUMP/"
{
  echo "// Code generated by generate.sh. DO NOT EDIT."
  echo "package main"
  echo "import ("
  echo "  \"k8s.io/apimachinery/pkg/runtime\""
  i=0; adds=()
  for p in "${PKGS[@]}"; do
    case "$p" in k8s.io/api/apidiscovery/*|k8s.io/apimachinery/*) continue ;; esac
    dir=$SRC/$p; [ -d "$dir" ] || dir=$APIEXT_ROOT/src/$p
    if grep -qE '^[[:space:]]*(AddToScheme[[:space:]]*=|func AddToScheme)' $(ls "$dir"/*.go | grep -v '_test\.go$'); then
      echo "  s$i \"$p\""; adds+=("s$i.AddToScheme"); i=$((i+1))
    fi
  done
  echo ")"
  echo "var addToSchemes = []func(*runtime.Scheme) error{"
  for a in "${adds[@]}"; do echo "  $a,"; done
  echo "}"
} > "$DUMP/schemes.go"
"$GOROOT/bin/gofmt" -w "$DUMP/schemes.go"
go build -o "$W/bin/dump" k8sopenapi.local/dump
"$W/bin/dump" -version "v$K8S_VERSION" -out "$OUT/openapi-v3.json"
ls -l "$OUT"
