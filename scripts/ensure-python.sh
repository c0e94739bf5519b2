#!/usr/bin/env bash
# The Python client's end-to-end test (test/python-client.e2e-spec.ts) decodes the service's answers
# with python3. Installs Debian's when missing and we may (root with apt-get).
set -euo pipefail
if command -v python3 >/dev/null 2>&1; then exit 0; fi
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's python3 for the Python client test…"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >/dev/null
else
  echo "python3 is missing and cannot be installed here (needs root and apt-get); the Python client test will fail." >&2
fi
