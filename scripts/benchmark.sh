#!/usr/bin/env bash
# Benchmarks Lorekeeper over HTTP and prints Markdown blocks for the README (also saved under
# bench-results/). A benchmark, not a test: numbers depend on the machine and its load.
#
#   scripts/benchmark.sh [ingest] [scale] [throughput] [strategies] [extractive] [burst]   (default: the first four, ~35 min on 2 cores)
#
#   ingest      ingestion throughput of each novel, total and per stage, and its ratio to the raw
#               speed of the embedding model on the same chunks (the service's embedding-benchmark
#               command, run after the service has stopped so that nothing else competes).
#   scale       search latency p50/p95 per mode at 100K, 1M and 10M stored tokens (cumulative), in
#               one document and across all documents; ratios against the first tier.
#   throughput  on the scale phase's data (its database is not reset), hybrid search throughput with 32 clients (LK_BENCH_CLIENTS) and one
#               client's latency, with distinct queries, for the current search path, the previous
#               one (BM25 scored in SQL, --lorekeeper.search.keyword-index.enabled=false) and the current one
#               again, each in a fresh service process: a baseline measured in the same run.
#               LK_BENCH_THROUGHPUT_BASELINE replaces the baseline's settings (e.g.
#               --lorekeeper.search.proximity.enabled=false: hybrid without term proximity).
#   strategies  questions/s and serving overhead per strategy with the simulated LLM sleeping a
#               fixed latency per call; ratios against the model time and the rag baseline.
#   extractive  the whole novel LK_BENCH_NOVEL (retrieval-only) READY with its sentences memory, then extractive questions:
#               one client's p50/p95 over forty questions, and questions/s with LK_BENCH_EXTRACTIVE_CLIENTS (16) clients
#               asking distinct questions for 30 s; for the current path, the previous one (every candidate sentence
#               embedded per question, --lorekeeper.benchmark.extractive-baseline=every-sentence-embedded, test code) and the current one again
#               (LK_BENCH_EXTRACTIVE_PATHS, e.g. "current"; LK_BENCH_EXTRACTIVE_BASELINE replaces the baseline's
#               settings, e.g. --lorekeeper.search.keyword-index.enabled=false). LK_BENCH_REUSE=1 asks the novel stored by an earlier
#               extractive run on the same LK_BENCH_DB instead of ingesting it again.
#   burst       LK_BENCH_BURST_CLIENTS (32) extractive questions at the same moment on a document just
#               READY (the first LK_BENCH_BURST_CHARS, 200000, of the novel), then the same again warm:
#               p50/p95 of each burst and the cold/warm p95 ratio.
#
# Each phase resets its own database of scripts/pg-local.sh (never the lorekeeper one), starts the
# service from a private copy of the jar (ingest's embedding benchmark, scale, throughput, strategies and the extractive questions: of the test classes, where the
# embedding-benchmark command, the simulated LLM and the benchmark baselines live) on a free port (18080 upward) with the phase's settings,
# runs the client in scripts/bench (plain JDK 21+ sources, compiled here) and stops the service.
#
# Environment: LK_BENCH_NOVELS (the novels to ingest and the scale corpus: a folder of .txt files,
# default ../shared/data/novels), LK_BENCH_NOVEL (the strategies document; default Great
# Expectations), LK_BENCH_TIERS (default
# 100K,1M,10M), LK_BENCH_SEED (42), LK_BENCH_STRATEGIES (extractive,rag,gam,mindgraph,memcot,cosmir,chain-of-agents),
# LK_BENCH_LLM_LATENCY_MS (200), LK_BENCH_QUESTIONS (20), LK_BENCH_CONCURRENCY (8),
# LK_BENCH_CHARS (strategies document size in characters; 400000), LK_BENCH_PORT, LK_BENCH_START_TIMEOUT (s, 180), LK_BENCH_DB
# (default lorekeeper_bench), LK_BENCH_JFR (set: the first run of the throughput and extractive phases is flight-recorded
# and its hot methods printed; the recording stays in bench-results/).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
source scripts/java-env.sh

phases=("$@")
[ ${#phases[@]} -gt 0 ] || phases=(ingest scale throughput strategies)
novel=${LK_BENCH_NOVEL:-$here/../shared/data/novels/great_expectations_pg1400.txt}
novels=${LK_BENCH_NOVELS:-$here/../shared/data/novels}
db=${LK_BENCH_DB:-lorekeeper_bench}
jar=service/target/lorekeeper-0.1.0-SNAPSHOT.jar
# The scale phase's documents, kept for the throughput phase (which searches them as they are).
scale_state=bench-results/scale-$db.state

log() { printf '[benchmark] %s\n' "$*" >&2; }

for phase in "${phases[@]}"; do
  case $phase in ingest|scale|throughput|strategies|extractive|burst) ;; *) log "unknown phase: $phase (ingest, scale, throughput, strategies, extractive, burst)"; exit 2 ;; esac
done
[ -f "$novel" ] || { log "novel not found: $novel"; exit 1; }
if [ "$db" = lorekeeper ]; then log "refusing to reset the lorekeeper database"; exit 1; fi

# The simulated LLM (strategies) and the embedding benchmark command (ingest) are test code: those phases run the
# service from its test classes (io.lorekeeper.TestLorekeeperApplication) on the test class path Maven writes here.
classpath_file=service/target/test-classpath.txt
if [ ! -f "$jar" ] || [ ! -f "$classpath_file" ] \
  || [ -n "$(find service/src service/db service/pom.xml evaluator/src evaluator/pom.xml text/src text/pom.xml pom.xml -newer "$jar" -type f -print -quit)" ]; then
  log "building $jar"
  ./mvnw -q -B -o package -DskipTests dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/test-classpath.txt
fi

work=$(mktemp -d)
# A private copy of the jar and classes, so that a rebuild during the run cannot change them underneath.
cp "$jar" "$work/lorekeeper.jar"
cp -r service/target/classes "$work/service-classes"
cp -r service/target/test-classes "$work/service-test-classes"
jar_service=(java -jar "$work/lorekeeper.jar")
tools_service=(java -cp "$work/service-test-classes:$work/service-classes:$(cat "$classpath_file")" io.lorekeeper.TestLorekeeperApplication)
launcher=("${jar_service[@]}")
javac -d "$work/classes" scripts/bench/*.java
mkdir -p bench-results
results=bench-results/$(date -u +%Y%m%dT%H%M%SZ).md
LK_PG_DB=$db scripts/pg-local.sh start >/dev/null

pid=""
service_log=""
stop_service() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    log "stopping the service (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  pid=""
}
cleanup() {
  rc=$?
  if [ "$rc" -ne 0 ] && [ -n "$service_log" ] && [ -f "$service_log" ]; then
    log "failed; last lines of the service log:"; tail -n 40 "$service_log" >&2
  fi
  stop_service
  rm -rf "$work"
}
trap cleanup EXIT

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  if [ -n "${LK_BENCH_PORT:-}" ]; then
    port_free "$LK_BENCH_PORT" || { log "port $LK_BENCH_PORT is in use"; exit 1; }
    echo "$LK_BENCH_PORT"; return
  fi
  for candidate in $(seq 18080 18180); do
    if port_free "$candidate"; then echo "$candidate"; return; fi
  done
  log "no free port in 18080-18180"; exit 1
}

# start_service <phase> [service arguments…]: a fresh database, the service on it; sets base.
start_service() {
  url=$(scripts/pg-local.sh reset "$db")
  launch_service "$@"
}

# launch_service <phase> [service arguments…]: the service on the database as it is; sets base.
launch_service() {
  local phase=$1; shift
  port=$(pick_port)
  service_log=$work/$phase.log
  log "$phase: starting the service on port $port ($*)"
  SPRING_DATASOURCE_URL=$url LOREKEEPER_LOG_FORMAT= \
    "${launcher[@]}" --server.port="$port" "$@" >"$service_log" 2>&1 &
  pid=$!
  base=http://127.0.0.1:$port
  local deadline=$((SECONDS + ${LK_BENCH_START_TIMEOUT:-180}))
  until curl -fsS -o /dev/null --max-time 5 "$base/actuator/health/readiness" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { log "the service exited during startup"; exit 1; }
    [ "$SECONDS" -lt "$deadline" ] || { log "the service was not ready within ${LK_BENCH_START_TIMEOUT:-180} s"; exit 1; }
    sleep 0.5
  done
}

bench() { java -cp "$work/classes" Main "$@" | tee -a "$results"; }

# With LK_BENCH_JFR set, the next service launched runs under a flight recording (JFR's profiling
# settings) and jfr_end, after it stops, prints its hot methods into the results.
jfr_file=""
jfr_begin() {
  [ -n "${LK_BENCH_JFR:-}" ] || return 0
  jfr_file=$here/bench-results/$1-$(date -u +%Y%m%dT%H%M%SZ).jfr
  export JAVA_TOOL_OPTIONS="-XX:StartFlightRecording=filename=$jfr_file,settings=profile,dumponexit=true"
}
jfr_end() {
  if [ -n "$jfr_file" ] && [ -f "$jfr_file" ]; then
    { printf '\n### Where the service spends its CPU under load (JFR, %s)\n\n```\n' "$(basename "$jfr_file")"
      jfr view --width 160 hot-methods "$jfr_file" | head -n 40
      printf '```\n'; } | tee -a "$results"
  fi
  jfr_file=""
}

for phase in "${phases[@]}"; do
  case $phase in
    ingest)
      start_service ingest
      bench ingest "$base" "$novels" "$service_log" "$work/ingest.state"
      stop_service
      documents=$(sed -n 's/^documents=//p' "$work/ingest.state")
      log "ingest: the raw embedding model on the same chunks"
      SPRING_DATASOURCE_URL=$url LOREKEEPER_LOG_FORMAT= "${tools_service[@]}" \
        --spring.profiles.active=embedding-benchmark --spring.main.web-application-type=none \
        --lorekeeper.benchmark.documents="$documents" >"$work/raw.log" 2>&1 || { tail -n 40 "$work/raw.log" >&2; exit 1; }
      grep -q '^raw-embedding ' "$work/raw.log" || { log "the embedding benchmark printed no result"; exit 1; }
      bench embedding-ratio "$work/ingest.state" "$work/raw.log"
      ;;
    scale)
      # sentence-mean is test code (SentenceMeanBenchmarkMode): this phase runs on the test class path
      launcher=("${tools_service[@]}")
      start_service scale --lorekeeper.embedding.mode=sentence-mean
      launcher=("${jar_service[@]}")
      bench scale "$base" "$novels" "${LK_BENCH_TIERS:-100K,1M,10M}" "${LK_BENCH_SEED:-42}" "$work/scale.state"
      stop_service
      cp "$work/scale.state" "$scale_state"
      ;;
    throughput)
      [ -f "$scale_state" ] || { log "throughput needs the scale phase's corpus: run the scale phase first ($scale_state)"; exit 1; }
      url=$(LK_PG_DB=$db scripts/pg-local.sh url)
      # The previous search path as the same-run baseline, between two runs of the current one.
      salt=0
      for path in current baseline current; do
        salt=$((salt + 1))
        settings=(--lorekeeper.embedding.mode=sentence-mean)
        # shellcheck disable=SC2206 # the baseline's settings are words on purpose
        [ "$path" = baseline ] && settings+=(${LK_BENCH_THROUGHPUT_BASELINE:---lorekeeper.search.keyword-index.enabled=false})
        [ "$salt" = 1 ] && jfr_begin throughput
        launcher=("${tools_service[@]}")   # sentence-mean is test code, as in the scale phase
        launch_service "throughput-$path" "${settings[@]}"
        launcher=("${jar_service[@]}")
        unset JAVA_TOOL_OPTIONS
        export LK_BENCH_SERVICE_PID=$pid   # the client reads the service's CPU time and memory from /proc
        bench throughput "$base" "$novels" "$scale_state" "$path" "${LK_BENCH_CLIENTS:-32}" "${LK_BENCH_SEED:-42}" "$salt" \
          "$work/throughput.tsv"
        [ "$path" = current ] && [ "$salt" = 3 ] && bench modes "$base" "$novels" "$scale_state" 5 "${LK_BENCH_SEED:-42}"
        # BM25 alone across every document: the search that grows with the corpus
        [ "$salt" -le 2 ] && bench modes "$base" "$novels" "$scale_state" 100000 "${LK_BENCH_SEED:-42}" keyword "$path"
        stop_service
        jfr_end
      done
      bench throughput-report "$scale_state" "$work/throughput.tsv"
      ;;
    strategies)
      latency=${LK_BENCH_LLM_LATENCY_MS:-200}
      launcher=("${tools_service[@]}")
      start_service strategies --lorekeeper.llm.simulated.enabled=true --lorekeeper.llm.simulated.latency="${latency}ms" \
        --lorekeeper.llm.base-url=http://simulated.invalid/v1 --lorekeeper.llm.cache.enabled=false
      bench strategies "$base" "$novel" "${LK_BENCH_CHARS:-400000}" "$latency" \
        "${LK_BENCH_STRATEGIES:-extractive,rag,gam,mindgraph,memcot,cosmir,chain-of-agents,comorag}" "${LK_BENCH_QUESTIONS:-20}" "${LK_BENCH_CONCURRENCY:-8}"
      stop_service
      launcher=("${jar_service[@]}")
      ;;
    extractive)
      # one novel, then the current path, the previous one (every candidate sentence embedded per
      # question) and the current one again, each in a fresh service process on the same document
      extractive_state=bench-results/extractive-$db.state
      if [ -n "${LK_BENCH_REUSE:-}" ] && [ -f "$extractive_state" ]; then
        url=$(LK_PG_DB=$db scripts/pg-local.sh url)
        log "extractive: reusing the novel of $extractive_state"
      else
        start_service extractive-ingest
        bench extractive-ingest "$base" "$novel" "$work/extractive.state"
        stop_service
        cp "$work/extractive.state" "$extractive_state"
      fi
      cp "$extractive_state" "$work/extractive.state"
      run=0
      for path in ${LK_BENCH_EXTRACTIVE_PATHS:-current baseline current}; do
        run=$((run + 1))
        settings=()
        # shellcheck disable=SC2206 # the baseline's settings are words on purpose
        [ "$path" = baseline ] && settings+=(${LK_BENCH_EXTRACTIVE_BASELINE:---lorekeeper.benchmark.extractive-baseline=every-sentence-embedded})
        [ "$run" = 1 ] && jfr_begin extractive
        # the baseline is test code (EverySentenceEmbeddedBaseline): every path runs on the test class path, alike
        launcher=("${tools_service[@]}")
        launch_service "extractive-$path" "${settings[@]}"
        launcher=("${jar_service[@]}")
        unset JAVA_TOOL_OPTIONS
        export LK_BENCH_SERVICE_PID=$pid
        bench extractive "$base" "$novel" "$work/extractive.state" "$path" "${LK_BENCH_EXTRACTIVE_CLIENTS:-16}" \
          "${LK_BENCH_SEED:-42}" "$work/extractive.tsv"
        stop_service
        jfr_end
      done
      bench extractive-report "$work/extractive.state" "$work/extractive.tsv"
      ;;
    burst)
      start_service burst
      bench burst "$base" "$novel" "${LK_BENCH_BURST_CHARS:-200000}" "${LK_BENCH_BURST_CLIENTS:-32}"
      stop_service
      ;;
  esac
done
log "results saved to $results"
