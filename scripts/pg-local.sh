#!/usr/bin/env bash
# Provisions PostgreSQL with pgvector from the OS packages and runs a throw-away cluster on a
# private port, for machines without a Docker engine (CI runners, laptops, this dev box).
#
#   scripts/pg-local.sh install   install PostgreSQL + pgvector if missing (needs root or sudo)
#   scripts/pg-local.sh start     install, then start the cluster (idempotent) and create the database
#   scripts/pg-local.sh stop      stop the cluster
#   scripts/pg-local.sh url       print the JDBC URL of the running cluster
#   scripts/pg-local.sh reset DB  drop and recreate database DB (a clean slate for a test run)
#
# Environment: LK_PG_PORT (default 55432), LK_PG_DIR (default .local/pg in the repository),
# LK_PG_DB (default lorekeeper), LK_PG_VERSION (default: newest installed server, else 15).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${LK_PG_PORT:-55432}
dir=${LK_PG_DIR:-$here/.local/pg}
db=${LK_PG_DB:-lorekeeper}
user=lorekeeper
password=lorekeeper

log() { printf '[pg-local] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; exit 1; fi
}

pg_version() {
  if [ -n "${LK_PG_VERSION:-}" ]; then echo "$LK_PG_VERSION"; return; fi
  local v
  v=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
  echo "${v:-15}"
}

bindir() { echo "/usr/lib/postgresql/$(pg_version)/bin"; }

has_pgvector() {
  local share
  share=$("$(bindir)/pg_config" --sharedir 2>/dev/null) || return 1
  [ -f "$share/extension/vector.control" ]
}

install_postgres() {
  if [ -x "$(bindir)/postgres" ]; then return; fi
  log "installing PostgreSQL server packages"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql postgresql-contrib >/dev/null
}

# pgvector: prefer the distribution's binary package; where there is none (Debian bookworm),
# build it from Debian's source package of a newer release against the local server headers.
install_pgvector() {
  has_pgvector && return
  local v; v=$(pg_version)
  as_root apt-get update -qq
  if apt-cache show "postgresql-$v-pgvector" >/dev/null 2>&1; then
    log "installing postgresql-$v-pgvector"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "postgresql-$v-pgvector" >/dev/null
    has_pgvector && return
  fi
  log "building pgvector from Debian's source package"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    "postgresql-server-dev-$v" build-essential dpkg-dev >/dev/null
  local src=/etc/apt/sources.list.d/lorekeeper-pgvector-src.sources
  if ! apt-cache showsrc pgvector 2>/dev/null | grep -q '^Package: pgvector'; then
    as_root tee "$src" >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    as_root apt-get update -qq
  fi
  local work; work=$(mktemp -d)
  (
    cd "$work"
    apt-get source --download-only pgvector >/dev/null 2>&1
    dpkg-source -x --skip-patches ./pgvector_*.dsc src >/dev/null
    cd src
    # OPTFLAGS="" keeps -march=native out, so the library runs on any x86-64 CPU.
    make -s PG_CONFIG="$(bindir)/pg_config" OPTFLAGS="" >/dev/null
    as_root make -s PG_CONFIG="$(bindir)/pg_config" OPTFLAGS="" install >/dev/null
  )
  rm -rf "$work"
  has_pgvector || { log "pgvector build failed"; exit 1; }
  log "pgvector installed"
}

# initdb and postgres refuse to run as root: run them as the postgres system user.
run_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

psql_admin() { run_pg "$(bindir)/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

start_cluster() {
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    log "initdb in $dir/data"
    run_pg "$(bindir)/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  if ! run_pg "$(bindir)/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    log "starting PostgreSQL $(pg_version) on port $port"
    run_pg "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >/dev/null
  fi
  psql_admin -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user') THEN
      CREATE ROLE $user LOGIN SUPERUSER PASSWORD '$password'; END IF; END \$\$;"
  create_db "$db"
}

create_db() {
  if [ -z "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$1'")" ]; then
    psql_admin -c "CREATE DATABASE \"$1\" OWNER $user"
  fi
}

case "${1:-start}" in
  install) install_postgres; install_pgvector ;;
  start)   install_postgres; install_pgvector; start_cluster; echo "jdbc:postgresql://127.0.0.1:$port/$db" ;;
  stop)    run_pg "$(bindir)/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true ;;
  url)     echo "jdbc:postgresql://127.0.0.1:$port/$db" ;;
  reset)   target=${2:-$db}
           install_postgres; install_pgvector; start_cluster
           psql_admin -c "DROP DATABASE IF EXISTS \"$target\" WITH (FORCE)"
           create_db "$target"; echo "jdbc:postgresql://127.0.0.1:$port/$target" ;;
  *) echo "usage: $0 install|start|stop|url|reset [db]" >&2; exit 2 ;;
esac
