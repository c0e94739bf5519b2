#!/usr/bin/env bash
# Debian's tools that tests and benches drive, installed when missing and we may (root with apt-get):
#   bash scripts/ensure.sh chromium nginx python3      (npm test runs it first, for all three)
#   chromium  the viewer's and the play page's end-to-end tests drive it with playwright-core (playwright
#             cannot download its own browser here);
#   nginx     `npm run bench -- --instances 2` and test/load-balancer.e2e-spec.ts put it in front of
#             several api processes (docker/nginx/, docs/operations.md); nginx-light is the smallest
#             build with what we use (upstream hash, map, proxy);
#   python3   the Python client's end-to-end test (test/python-client.e2e-spec.ts) decodes the
#             service's answers with it.
#   postgres  Debian's server binaries (initdb, pg_ctl, pg_basebackup): the failover test
#             (test/failover.e2e-spec.ts) starts a primary and a standby of its own on free ports;
#   pg_autoctl  pg_auto_failover (monitor and keepers), for `npm run drill:failover` (docs/operations.md);
#   pgbackrest  continuous archiving and point-in-time restore, for `npm run drill:restore`.
# A tool that is missing and cannot be installed is only reported: the tests that need it fail.
set -euo pipefail

# ensure <command> <what it is for> <what fails without it> <apt-get install arguments…>
ensure() {
  local tool=$1 purpose=$2 without=$3
  shift 3
  if command -v "$tool" >/dev/null 2>&1; then return 0; fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's $tool for $purpose…"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "$tool is missing and cannot be installed here (needs root and apt-get); $without will fail." >&2
  fi
}

for tool in "$@"; do
  case $tool in
    chromium) ensure chromium 'the viewer test' 'the viewer test' chromium ;;
    nginx)
      # /usr/sbin is not on every user's PATH.
      if [[ ! -x /usr/sbin/nginx ]]; then
        ensure nginx 'the load balancer' 'the load-balancer test and bench --instances' --no-install-recommends nginx-light
      fi
      ;;
    python3) ensure python3 'the Python client test' 'the Python client test' python3 ;;
    postgres)
      # The server's binaries are not on PATH; any major Debian ships will do.
      if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        ensure initdb 'the failover test' 'the failover test' --no-install-recommends postgresql
      fi
      ;;
    pg_autoctl)
      major=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
      ensure pg_autoctl 'the failover drill' 'npm run drill:failover' --no-install-recommends "postgresql-${major:-15}-auto-failover" pg-auto-failover-cli
      ;;
    pgbackrest) ensure pgbackrest 'the restore drill' 'npm run drill:restore' --no-install-recommends pgbackrest ;;
    *)
      echo "ensure.sh: no recipe for '$tool' (chromium, nginx, python3, postgres, pg_autoctl, pgbackrest)" >&2
      exit 2
      ;;
  esac
done
