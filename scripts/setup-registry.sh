#!/usr/bin/env bash
# Installs what the OCI registry tests need on a Debian machine: Debian's docker-registry
# (distribution 2.8). The tests start their own instances on 127.0.0.1 with their own config
# and storage, so the packaged service is not used (and is stopped if the package started it).
# Idempotent; needs root. See ../shared/runtime-recipes.md (b).
set -euo pipefail
if ! command -v docker-registry >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends docker-registry >/dev/null
fi
docker-registry --version
