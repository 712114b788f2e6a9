#!/usr/bin/env bash
# Installs strace on a Debian machine: test/build/inputs-recall.test.ts and
# bench/inputs-recall.mjs watch which files kubectl kustomize opens with it. Idempotent; needs
# root when strace is missing.
set -euo pipefail
if ! command -v strace >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends strace >/dev/null
fi
strace -V | head -n 1
