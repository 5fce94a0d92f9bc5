#!/usr/bin/env bash
# Runs the whole test suite against a real PostgreSQL with pgvector.
# With a Docker engine the tests start a pgvector/pgvector container (Testcontainers); without one,
# this provisions PostgreSQL + pgvector from the OS packages (scripts/pg-local.sh) and hands the
# tests a fresh database in a throw-away cluster. Extra arguments go to Maven (e.g. -Dtest=SearchApiTest).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

if ! docker info >/dev/null 2>&1; then
  LOREKEEPER_TEST_DB_URL=$(scripts/pg-local.sh reset lorekeeper_test | tail -n 1)
  export LOREKEEPER_TEST_DB_URL
  echo "[test] no Docker engine: testing against $LOREKEEPER_TEST_DB_URL"
fi
exec ./mvnw -B -ntp verify "$@"
