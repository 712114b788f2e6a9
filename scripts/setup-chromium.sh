#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (test/browser-*.test.ts), if it is not there
# yet, and prints its path. Idempotent. Needs root (apt-get).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
fi
command -v chromium
