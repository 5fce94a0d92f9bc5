#!/usr/bin/env bash
# Runs an evaluation from the command line: provisions PostgreSQL + pgvector like run-local.sh (a
# private cluster on port 55432, database $LK_PG_DB, default lorekeeper_eval), builds the jars if
# needed, starts the service on a free port, runs the evaluator (evaluator module, a client of the
# service's HTTP API) against it, writes the report (report.json, report.md, accuracy-vs-tokens.svg),
# stops the service and exits with the evaluation's status (0 done, 2 more than half of the questions
# failed, 1 an error).
#
#   scripts/eval.sh --lorekeeper.eval.dataset=locomo \
#     --lorekeeper.eval.path=../shared/data/locomo/locomo10_dev3.json \
#     --lorekeeper.eval.strategies=extractive,rag,search:vector,search:keyword,search:hybrid \
#     --lorekeeper.eval.out=eval-results/locomo
#
# The --lorekeeper.eval.* options go to the evaluator (the same names as before, when the service ran
# the evaluation itself with its former "eval" profile; see io.lorekeeper.evaluator.cli.EvaluatorCli),
# every other argument to the service (e.g. --lorekeeper.llm.model=...). Changes from the in-service
# command: lorekeeper.eval.judge=true is refused (the command line has no LLM; POST /v1/evaluations with
# "judge": true grades with the service's judge role), lorekeeper.eval.exit is gone, and
# lorekeeper.eval.base-url is that of the service this script starts. To evaluate another, already
# running Lorekeeper, run the evaluator alone:
#   java -jar evaluator/target/lorekeeper-evaluator-0.1.0-SNAPSHOT-exec.jar --base-url URL --api-key KEY ...
# lorekeeper.eval.fit-confidence=<reports> fits the extractive confidence without starting a service; so do
# lorekeeper.eval.fit-passages=<reports> (the confidence of its passage answers),
# lorekeeper.eval.fit-spans=<reports> (the extractive answer-span ranker) and
# lorekeeper.eval.cross-validate=<reports> (the cross-validated report, scripts/eval-cv.sh).
#
# LK_EVAL_SIMULATED=1 swaps the LLM for the deterministic simulated model (no network; its answers
# are NOT a model's: only calls, tokens and overhead mean something): the service then runs from its
# test classes (io.lorekeeper.TestLorekeeperApplication), where the simulator lives. LK_BUILD_DIR picks
# the build folder inside each module (default target: service/target, evaluator/target).
# LK_EVAL_PORT fixes the service's port; LK_EVAL_START_TIMEOUT (s, default 300) bounds its start.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

eval_args=()
service_args=()
fit=no
for arg in "$@"; do
  case $arg in
    --lorekeeper.eval.data-dir=*) service_args+=("$arg") ;; # the service's folder for POST /v1/evaluations
    --lorekeeper.eval.exit=*) ;;                             # the in-service command's; nothing to exit now
    --lorekeeper.eval.base-url=*) echo "[eval] ignoring $arg: the evaluator runs against the service started here" >&2 ;;
    --lorekeeper.eval.fit-confidence=*|--lorekeeper.eval.fit-passages=*|--lorekeeper.eval.fit-spans=*|--lorekeeper.eval.cross-validate=*)
      fit=yes; eval_args+=("$arg") ;;                        # work on written reports: no service
    --lorekeeper.eval.*) eval_args+=("$arg") ;;
    *) service_args+=("$arg") ;;
  esac
done

build=${LK_BUILD_DIR:-target}
version=0.1.0-SNAPSHOT
jar=service/$build/lorekeeper-$version.jar
evaluator=evaluator/$build/lorekeeper-evaluator-$version-exec.jar
classpath_file=service/$build/test-classpath.txt
simulated=${LK_EVAL_SIMULATED:-0}
stale() { [ ! -f "$1" ] || [ -n "$(find service/src service/db service/pom.xml evaluator/src evaluator/pom.xml text/src text/pom.xml pom.xml -newer "$1" -print -quit)" ]; }
if stale "$jar" || stale "$evaluator" || { [ "$simulated" = 1 ] && stale "$classpath_file"; }; then
  echo "[eval] building $jar and $evaluator"
  # the test class path too: the simulated model is test code
  ./mvnw -B -ntp -q -Dlk.build.dir="$build" -DskipTests package dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$build/test-classpath.txt"
fi

if [ "$fit" = yes ]; then
  exec java -jar "$evaluator" "${eval_args[@]}"
fi

export LK_PG_DB=${LK_PG_DB:-lorekeeper_eval}
url=$(scripts/pg-local.sh start | tail -n 1)
export SPRING_DATASOURCE_URL=${SPRING_DATASOURCE_URL:-$url}
export DJL_CACHE_DIR=${DJL_CACHE_DIR:-$PWD/.local/djl}
port=${LK_EVAL_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
if [ "$simulated" = 1 ]; then
  service=(java --enable-native-access=ALL-UNNAMED
           -cp "service/$build/test-classes:service/$build/classes:$(cat "$classpath_file")"
           io.lorekeeper.TestLorekeeperApplication
           --lorekeeper.llm.simulated.enabled=true --lorekeeper.llm.base-url=http://simulated.invalid/v1
           --lorekeeper.llm.api-key= --lorekeeper.llm.cache.enabled=false)
else
  service=(java --enable-native-access=ALL-UNNAMED -jar "$jar")
fi
log=$(mktemp "${TMPDIR:-/tmp}/lorekeeper-eval-service.XXXXXX.log")
echo "[eval] starting the service on port $port (log: $log)"
"${service[@]}" --server.port="$port" "${service_args[@]}" >"$log" 2>&1 &
service_pid=$!
stop() { kill "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null || true; }
trap stop EXIT
deadline=$(( $(date +%s) + ${LK_EVAL_START_TIMEOUT:-300} ))
until curl -fsS -o /dev/null "http://localhost:$port/actuator/health/readiness" 2>/dev/null; do
  if ! kill -0 "$service_pid" 2>/dev/null; then
    echo "[eval] the service stopped while starting:" >&2; tail -n 40 "$log" >&2; exit 1
  fi
  if [ "$(date +%s)" -gt "$deadline" ]; then
    echo "[eval] the service did not become ready in time:" >&2; tail -n 40 "$log" >&2; exit 1
  fi
  sleep 1
done
status=0
java -jar "$evaluator" --base-url "http://localhost:$port" "${eval_args[@]}" || status=$?
exit "$status"
