#!/usr/bin/env bash
# Runs the whole test suite against a real PostgreSQL with pgvector.
# With a Docker engine the tests start a pgvector/pgvector container (Testcontainers); without one,
# this provisions PostgreSQL + pgvector from the OS packages (scripts/pg-local.sh) and hands the
# tests a fresh database of this checkout's own in a throw-away cluster (or in a compatible server
# another checkout already runs). A server this run started is stopped when it ends, and the test
# databases are dropped. Chromium and its driver come from the OS packages too (scripts/browser-local.sh),
# for the console's browser tests. Extra arguments go to Maven (e.g. -Dtest=SearchApiTest).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

if ! docker info >/dev/null 2>&1; then
  was_running=$(scripts/pg-local.sh running 2>/dev/null || echo no)
  LOREKEEPER_TEST_DB_URL=$(scripts/pg-local.sh test-db | tail -n 1)
  export LOREKEEPER_TEST_DB_URL
  test_db=${LOREKEEPER_TEST_DB_URL##*/}
  cleanup() {
    scripts/pg-local.sh drop "$test_db" >/dev/null 2>&1 || true
    if [ "$was_running" != yes ]; then scripts/pg-local.sh stop-if-idle; fi
  }
  trap cleanup EXIT
  echo "[test] no Docker engine: testing against $LOREKEEPER_TEST_DB_URL"
fi
# The console's browser tests drive Debian's Chromium; under CI a browser that cannot be installed
# fails the run (the tests fail too), elsewhere those tests are skipped with a message.
if ! scripts/browser-local.sh install; then
  if [ -n "${CI:-}" ]; then echo "[test] chromium/chromedriver could not be installed" >&2; exit 1; fi
  echo "[test] no chromium/chromedriver: the console's browser tests will be skipped" >&2
fi
# promtool (Debian's prometheus package, of which only the tool is used) checks the chart's alerting rules
# in MonitoringChartTest; like the browser, it is required under CI and skipped elsewhere when missing.
if ! command -v promtool >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  # the package lists first: on a machine whose browser was already there nothing has read them yet
  $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1 || true
  if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
      --no-install-recommends prometheus >/dev/null 2>&1; then
    if [ -n "${CI:-}" ]; then echo "[test] promtool (package prometheus) could not be installed" >&2; exit 1; fi
    echo "[test] no promtool: the alerting rules' check will be skipped" >&2
  fi
fi
./mvnw -B -ntp verify "$@"
