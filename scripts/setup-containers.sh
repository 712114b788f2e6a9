#!/usr/bin/env bash
# Installs and configures what the container-function tests need on a Debian machine:
# podman with runc (crun fails on this kind of machine), busybox-static for a FROM scratch
# test image, and a containers.conf that works without CAP_SYS_RESOURCE and never pulls.
# Idempotent; needs root. See ../shared/runtime-recipes.md (a).
set -euo pipefail
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || [ ! -x /bin/busybox ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends podman runc busybox-static >/dev/null
fi
mkdir -p /etc/containers
if ! grep -q 'kustomize-ts' /etc/containers/containers.conf 2>/dev/null; then
  cat > /etc/containers/containers.conf <<'CONF'
# written by kustomize-ts scripts/setup-containers.sh
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
pull_policy = "never"
CONF
fi
podman --version
