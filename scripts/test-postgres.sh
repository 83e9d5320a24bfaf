#!/usr/bin/env bash
# The domain suite (server/**/*.test.ts) on PostgreSQL, then the two-hub suite (e2e/hubs-postgres.test.ts): a
# throwaway cluster (scripts/pg-cluster.sh), a fresh database per test (server/testing/temp-hub.ts), the cluster
# stopped and removed however the run ends.
# Arguments, if any, replace both as what vitest runs in the unit project (files, directories, a -t filter).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v initdb >/dev/null 2>&1 && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "PostgreSQL's server is not installed (Debian: apt-get install postgresql); the domain suite on PostgreSQL needs it" >&2
  exit 1
fi
cluster=$(mktemp -d "${TMPDIR:-/tmp}/teamhub-pg-XXXXXX")
trap 'scripts/pg-cluster.sh stop "$cluster"' EXIT
url=$(scripts/pg-cluster.sh start "$cluster")
if (($#)); then
  TEST_DATABASE_URL="$url" npx vitest run --project unit "$@"
else
  TEST_DATABASE_URL="$url" npx vitest run --project unit server
  TEST_DATABASE_URL="$url" npx vitest run --project e2e e2e/hubs-postgres.test.ts
fi
