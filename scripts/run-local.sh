#!/usr/bin/env bash
# Runs Lorekeeper on its embedded defaults without Docker: PostgreSQL + pgvector from the OS
# packages in a private cluster (scripts/pg-local.sh, port 55432), in-process embeddings, and an
# LLM only if OPENAI_API_KEY or LOREKEEPER_LLM_BASE_URL is set. Serves http://localhost:8080.
# Extra arguments go to the application (e.g. --server.port=9090).
#
# It builds only what runs: the service jar and the two modules it needs, without compiling or
# generating any test code (no tests, no generated API clients), and only when the jar is missing or
# older than the sources. LK_REBUILD=1 builds it again anyway.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh
say() { printf '[run] %s\n' "$*" >&2; }

say "PostgreSQL with pgvector (scripts/pg-local.sh; the first time installs packages)"
url=$(scripts/pg-local.sh start | tail -n 1)
jar=service/target/lorekeeper-0.1.0-SNAPSHOT.jar
sources="service/src/main service/db service/pom.xml evaluator/src/main evaluator/pom.xml text/src/main text/pom.xml pom.xml"
# shellcheck disable=SC2086
if [ -n "${LK_REBUILD:-}" ] || [ ! -f "$jar" ] || [ -n "$(find $sources -newer "$jar" -print -quit)" ]; then
  say "building $jar with $(java -version 2>&1 | head -n 1) (tests and generated clients skipped; the first build downloads dependencies)"
  started=$(date +%s)
  ./mvnw -B -ntp -q -pl service -am package -Dmaven.test.skip=true -Dcodegen.skip=true -Dspotless.check.skip=true
  say "built in $(( $(date +%s) - started )) s"
else
  say "reusing $jar (no source is newer; LK_REBUILD=1 builds it again)"
fi
export SPRING_DATASOURCE_URL=${SPRING_DATASOURCE_URL:-$url}
export DJL_CACHE_DIR=${DJL_CACHE_DIR:-$PWD/.local/djl}
say "starting the service on ${SPRING_DATASOURCE_URL} (ready when it logs 'Started LorekeeperApplication'; then http://localhost:8080)"
exec java --enable-native-access=ALL-UNNAMED -jar "$jar" "$@"
