#!/bin/sh
# `monitor` or `node`: creates the data directory on the first start, then runs its keeper
# (`pg_autoctl run`), which restarts PostgreSQL, rejoins a returning node as a standby, and so on.
set -eu
role=$1
if [ ! -f "$PGDATA/PG_VERSION" ]; then
  case $role in
    monitor) pg_autoctl create monitor --pgdata "$PGDATA" --hostname "$(hostname)" --auth "${PGAF_AUTH:-scram-sha-256}" --ssl-self-signed ;;
    node) pg_autoctl create postgres --pgdata "$PGDATA" --hostname "$(hostname)" --name "$(hostname)" \
            --auth "${PGAF_AUTH:-scram-sha-256}" --ssl-self-signed --pg-hba-lan --dbname bismarck --username bismarck \
            --monitor "$PGAF_MONITOR" ;;
    *) echo "usage: pgaf-entrypoint monitor|node" >&2; exit 2 ;;
  esac
fi
exec pg_autoctl run --pgdata "$PGDATA"
