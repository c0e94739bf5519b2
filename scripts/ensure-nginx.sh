#!/usr/bin/env bash
# `npm run bench -- --instances 2` and test/load-balancer.e2e-spec.ts put Debian's nginx in front of
# several api processes (docker/nginx/, docs/operations.md). Installs it when missing and we may (root
# with apt-get); nginx-light is the smallest build with what we use (upstream hash, map, proxy).
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]]; then exit 0; fi
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's nginx for the load balancer…"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light >/dev/null
else
  echo "nginx is missing and cannot be installed here (needs root and apt-get); the load-balancer test and bench --instances will fail." >&2
fi
