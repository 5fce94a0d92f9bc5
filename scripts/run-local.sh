#!/usr/bin/env bash
# Runs Lorekeeper on its embedded defaults without Docker: PostgreSQL + pgvector from the OS
# packages in a private cluster (scripts/pg-local.sh, port 55432), in-process embeddings, and an
# LLM only if OPENAI_API_KEY or LOREKEEPER_LLM_BASE_URL is set. Serves http://localhost:8080.
# Extra arguments go to the application (e.g. --server.port=9090).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

url=$(scripts/pg-local.sh start | tail -n 1)
jar=service/target/lorekeeper-0.1.0-SNAPSHOT.jar
if [ ! -f "$jar" ] || [ -n "$(find service/src service/db service/pom.xml evaluator/src evaluator/pom.xml text/src text/pom.xml pom.xml -newer "$jar" -print -quit)" ]; then
  echo "[run] building $jar"
  ./mvnw -B -ntp -q -DskipTests package
fi
export SPRING_DATASOURCE_URL=${SPRING_DATASOURCE_URL:-$url}
export DJL_CACHE_DIR=${DJL_CACHE_DIR:-$PWD/.local/djl}
exec java --enable-native-access=ALL-UNNAMED -jar "$jar" "$@"
