#!/usr/bin/env bash
# The viewer's end-to-end test drives Debian's Chromium with playwright-core (playwright cannot
# download its own browser here). Installs it when missing and we may (root with apt-get).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the viewer test…"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "chromium is missing and cannot be installed here (needs root and apt-get); the viewer test will fail." >&2
fi
