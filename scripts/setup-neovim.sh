#!/usr/bin/env bash
# Installs Debian's neovim for test/editors/neovim.test.ts, which runs it headless as a real
# language client of `kustomize-ts lsp`, if it is not there yet, and prints its version.
# Idempotent. Needs root (apt-get).
set -euo pipefail
if ! command -v nvim >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends neovim >&2
fi
nvim --version | head -n 1
