#!/usr/bin/env bash
# Runs an evaluation from the command line: provisions PostgreSQL + pgvector like run-local.sh (a
# private cluster on port 55432, database $LK_PG_DB, default lorekeeper_eval), builds the jar if
# needed, starts the service with the "eval" profile on a free port, evaluates, writes the report
# (report.json, report.md, accuracy-vs-tokens.svg) and exits with the evaluation's status.
#
#   scripts/eval.sh --lorekeeper.eval.dataset=locomo \
#     --lorekeeper.eval.path=../shared/data/locomo/locomo10_dev3.json \
#     --lorekeeper.eval.strategies=extractive,rag,search:vector,search:keyword,search:hybrid \
#     --lorekeeper.eval.out=eval-results/locomo
#
# LK_EVAL_SIMULATED=1 swaps the LLM for the deterministic simulated model (no network; its answers
# are NOT a model's: only calls, tokens and overhead mean something). LK_BUILD_DIR picks the build
# folder inside each module (default target: service/target). Other arguments go to the application.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

export LK_PG_DB=${LK_PG_DB:-lorekeeper_eval}
url=$(scripts/pg-local.sh start | tail -n 1)
build=${LK_BUILD_DIR:-target}
jar=service/$build/lorekeeper-0.1.0-SNAPSHOT.jar
if [ ! -f "$jar" ] || [ -n "$(find service/src service/db service/pom.xml pom.xml -newer "$jar" -print -quit)" ]; then
  echo "[eval] building $jar"
  ./mvnw -B -ntp -q -Dlk.build.dir="$build" -DskipTests package
fi
export SPRING_DATASOURCE_URL=${SPRING_DATASOURCE_URL:-$url}
export DJL_CACHE_DIR=${DJL_CACHE_DIR:-$PWD/.local/djl}
extra=()
if [ "${LK_EVAL_SIMULATED:-0}" = 1 ]; then
  extra+=(--lorekeeper.llm.simulated.enabled=true --lorekeeper.llm.base-url=http://simulated.invalid/v1
          --lorekeeper.llm.api-key= --lorekeeper.llm.cache.enabled=false)
fi
exec java --enable-native-access=ALL-UNNAMED -jar "$jar" --spring.profiles.active=eval --server.port="${LK_EVAL_PORT:-0}" \
  "${extra[@]}" "$@"
