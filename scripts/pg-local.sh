#!/usr/bin/env bash
# Provisions PostgreSQL with pgvector from the OS packages and runs a throw-away cluster on a
# private port, for machines without a Docker engine (CI runners, laptops, this dev box).
#
#   scripts/pg-local.sh install   install PostgreSQL + pgvector if missing (needs root or sudo)
#   scripts/pg-local.sh start     install, then make a server available (idempotent) and create the database
#   scripts/pg-local.sh stop      stop this checkout's own cluster (never a server it merely reused)
#   scripts/pg-local.sh stop-if-idle  the same, unless another checkout is using it (a test database of
#                                 its own, or a connection): then it is left running for them
#   scripts/pg-local.sh url       print the JDBC URL of the server in use
#   scripts/pg-local.sh running   print "yes" when a usable server answers (own or shared), else "no"
#   scripts/pg-local.sh reset DB  drop and recreate database DB (a clean slate for a test run)
#   scripts/pg-local.sh test-db   reset this checkout's own test database and print its URL
#   scripts/pg-local.sh drop PREFIX  drop every database whose name starts with PREFIX
#
# Several checkouts share the machine politely: when a compatible PostgreSQL (our role, pgvector
# available) already listens on the port, it is reused instead of starting a second server;
# when something else holds the port, this checkout's cluster starts on the next free port
# (remembered in $LK_PG_DIR/port). Test databases are named after the checkout, so two test
# runs on one server never drop each other's data.
#
# Environment: LK_PG_PORT (default 55432), LK_PG_DIR (default .local/pg in the repository),
# LK_PG_DB (default lorekeeper), LK_PG_VERSION (default: newest installed server, else 15).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${LK_PG_DIR:-$here/.local/pg}
wanted_port=${LK_PG_PORT:-55432}
port=$wanted_port
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

# Over TCP as our superuser role, so the same call works on a server this checkout only reuses.
psql_admin() { PGPASSWORD=$password "$(bindir)/psql" -h 127.0.0.1 -p "$port" -U "$user" -d postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A server we can use: our role logs in and pgvector can be created there.
usable() {
  [ "$(PGPASSWORD=$password "$(bindir)/psql" -h 127.0.0.1 -p "$1" -U "$user" -d postgres -qAt -c \
      "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'" 2>/dev/null)" = "1" ]
}

own_running() { [ -f "$dir/data/PG_VERSION" ] && run_pg "$(bindir)/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; }

# Sets $port to the server this checkout should talk to, without starting anything.
find_server() {
  if own_running && [ -f "$dir/port" ]; then port=$(cat "$dir/port"); return 0; fi
  port=$wanted_port
  usable "$port"
}

start_cluster() {
  if find_server; then
    own_running || log "reusing the PostgreSQL already serving port $port"
    create_db "$db"; return
  fi
  port=$wanted_port
  while listening "$port"; do
    log "port $port is taken by a server this checkout cannot use; trying $((port + 1))"
    port=$((port + 1))
  done
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    log "initdb in $dir/data"
    run_pg "$(bindir)/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  log "starting PostgreSQL $(pg_version) on port $port"
  run_pg "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" >/dev/null
  echo "$port" > "$dir/port"
  run_pg "$(bindir)/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt -c \
    "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user') THEN
      CREATE ROLE $user LOGIN SUPERUSER PASSWORD '$password'; END IF; END \$\$;"
  create_db "$db"
}

create_db() {
  if [ -z "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$1'")" ]; then
    psql_admin -c "CREATE DATABASE \"$1\" OWNER $user"
  fi
}

# One test database per checkout: two test runs sharing a server never reset each other's.
test_db() { echo "lorekeeper_test_$(printf '%s' "$here" | md5sum | cut -c1-8)"; }

reset_db() {
  install_postgres; install_pgvector; start_cluster
  psql_admin -c "DROP DATABASE IF EXISTS \"$1\" WITH (FORCE)"
  create_db "$1"; echo "jdbc:postgresql://127.0.0.1:$port/$1"
}

case "${1:-start}" in
  install) install_postgres; install_pgvector ;;
  start)   install_postgres; install_pgvector; start_cluster; echo "jdbc:postgresql://127.0.0.1:$port/$db" ;;
  stop)    own_running && run_pg "$(bindir)/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1; rm -f "$dir/port"; true ;;
  stop-if-idle)
           own_running || exit 0
           find_server || exit 0
           others=$(psql_admin -c "SELECT (SELECT count(*) FROM pg_database WHERE starts_with(datname, 'lorekeeper_test_'))
                                        + (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'
                                                                                 AND pid <> pg_backend_pid())")
           if [ "${others:-0}" -gt 0 ]; then
             log "leaving PostgreSQL on port $port running: another checkout is using it"
           else
             run_pg "$(bindir)/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1; rm -f "$dir/port"
           fi ;;
  url)     find_server || true; echo "jdbc:postgresql://127.0.0.1:$port/$db" ;;
  running) if [ -x "$(bindir)/psql" ] && find_server; then echo yes; else echo no; fi ;;
  reset)   reset_db "${2:-$db}" ;;
  test-db) reset_db "$(test_db)" ;;
  drop)    [ -n "${2:-}" ] || { echo "usage: $0 drop PREFIX" >&2; exit 2; }
           find_server || exit 0
           for name in $(psql_admin -c "SELECT datname FROM pg_database WHERE starts_with(datname, '$2')"); do
             psql_admin -c "DROP DATABASE IF EXISTS \"$name\" WITH (FORCE)"
           done ;;
  *) echo "usage: $0 install|start|stop|url|running|reset [db]|test-db|drop PREFIX" >&2; exit 2 ;;
esac
