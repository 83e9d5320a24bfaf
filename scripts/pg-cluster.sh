#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and CI, nothing kept:
#   scripts/pg-cluster.sh start <dir>   creates <dir> (or takes an empty one), starts a cluster in it on a free 127.0.0.1 port with trust
#                                       authentication, and prints its URL (postgres://postgres@127.0.0.1:<port>/postgres)
#   scripts/pg-cluster.sh stop <dir>    stops it and removes <dir>
# The server refuses to run as root: as root, it runs as the `postgres` user. Durability is switched off (fsync,
# synchronous_commit): a test cluster is thrown away, and that makes each test's CREATE DATABASE cheap.
set -euo pipefail
cmd=${1:-} dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop <dir>" >&2
  exit 2
fi

# Debian's postgresql package keeps its server binaries off PATH.
if ! command -v initdb >/dev/null 2>&1; then
  for d in /usr/lib/postgresql/*/bin; do [[ -x "$d/initdb" ]] && PATH="$d:$PATH"; done
fi
as_owner() { if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$cmd" in
  start)
    mkdir -p "$dir"
    [[ "$(id -u)" == 0 ]] && chown postgres: "$dir"
    port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
    as_owner initdb -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [[ -d "$dir/data" ]] && as_owner pg_ctl -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop <dir>" >&2
    exit 2
    ;;
esac
