#!/usr/bin/env bash
# The domain suite (server/**/*.test.ts) on PostgreSQL: a throwaway cluster (scripts/pg-cluster.sh), a fresh
# database per test (server/testing/temp-hub.ts), the cluster stopped and removed however the run ends.
# Arguments, if any, replace `server` as what vitest runs (files, directories, a -t filter).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v initdb >/dev/null 2>&1 && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "PostgreSQL's server is not installed (Debian: apt-get install postgresql); the domain suite on PostgreSQL needs it" >&2
  exit 1
fi
cluster=$(mktemp -d "${TMPDIR:-/tmp}/teamhub-pg-XXXXXX")
trap 'scripts/pg-cluster.sh stop "$cluster"' EXIT
url=$(scripts/pg-cluster.sh start "$cluster")
TEST_DATABASE_URL="$url" npx vitest run --project unit "${@:-server}"
