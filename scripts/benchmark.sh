#!/usr/bin/env bash
# Benchmarks Lorekeeper end to end over HTTP and prints a Markdown block for the README:
# ingestion throughput (tokens/s, total and per stage) of Great Expectations, and search latency
# p50/p95/mean for the vector, keyword and hybrid modes at k=10 (see scripts/Benchmark.java).
#
#   scripts/benchmark.sh
#
# Builds the jar when it is missing or older than the sources, resets the lorekeeper_bench
# database of scripts/pg-local.sh, starts the service on a free port (18080 upward; never touches
# a service on 8080 or the lorekeeper database), waits for readiness, runs the benchmark and stops
# the service. A benchmark, not a test: numbers depend on the machine and its load.
#
# Environment: LK_BENCH_NOVEL (default ../shared/data/novels/great_expectations_pg1400.txt),
# LK_BENCH_PORT (default: the first free port from 18080), LK_BENCH_DB (default lorekeeper_bench).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
source scripts/java-env.sh

novel=${LK_BENCH_NOVEL:-$here/../shared/data/novels/great_expectations_pg1400.txt}
db=${LK_BENCH_DB:-lorekeeper_bench}
jar=target/lorekeeper-0.1.0-SNAPSHOT.jar

log() { printf '[benchmark] %s\n' "$*" >&2; }

[ -f "$novel" ] || { log "novel not found: $novel"; exit 1; }
if [ "$db" = lorekeeper ]; then log "refusing to reset the lorekeeper database"; exit 1; fi

if [ ! -f "$jar" ] || [ -n "$(find src/main pom.xml -newer "$jar" -type f -print -quit)" ]; then
  log "building $jar"
  ./mvnw -q -B -o package -DskipTests
fi

LK_PG_DB=$db scripts/pg-local.sh start >/dev/null
url=$(scripts/pg-local.sh reset "$db")
log "database reset: $url"

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=${LK_BENCH_PORT:-}
if [ -z "$port" ]; then
  for candidate in $(seq 18080 18180); do
    if port_free "$candidate"; then port=$candidate; break; fi
  done
  [ -n "$port" ] || { log "no free port in 18080-18180"; exit 1; }
elif ! port_free "$port"; then
  log "port $port is in use"; exit 1
fi

# Run a private copy of the jar, so that a rebuild during the run cannot change it underneath.
work=$(mktemp -d)
cp "$jar" "$work/lorekeeper.jar"
service_log=$work/service.log
pid=""
cleanup() {
  rc=$?
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    log "stopping the service (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ] && [ -f "$service_log" ]; then
    log "failed; last lines of the service log:"; tail -n 40 "$service_log" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT

log "starting the service on port $port"
SPRING_DATASOURCE_URL=$url LOREKEEPER_LOG_FORMAT= \
  java -jar "$work/lorekeeper.jar" --server.port="$port" >"$service_log" 2>&1 &
pid=$!

base=http://127.0.0.1:$port
deadline=$((SECONDS + 120))
until curl -fsS -o /dev/null --max-time 5 "$base/actuator/health/readiness" 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || { log "the service exited during startup"; exit 1; }
  [ "$SECONDS" -lt "$deadline" ] || { log "the service was not ready within 120 s"; exit 1; }
  sleep 0.5
done
log "service ready after $((SECONDS + 120 - deadline)) s"

java scripts/Benchmark.java "$base" "$novel" "$service_log"
