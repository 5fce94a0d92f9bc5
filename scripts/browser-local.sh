#!/usr/bin/env bash
# Makes Debian's Chromium and its WebDriver available for the console's browser tests, the way
# pg-local.sh provides PostgreSQL: nothing is downloaded by the tests themselves (Selenium Manager
# cannot reach its download sites here), only the distribution's packages.
#
#   scripts/browser-local.sh install   install chromium + chromium-driver if missing (needs root or sudo)
#   scripts/browser-local.sh check     exit 0 when both binaries are present
set -euo pipefail

browser=${LK_CHROMIUM:-/usr/bin/chromium}
driver=${LK_CHROMEDRIVER:-/usr/bin/chromedriver}

log() { printf '[browser-local] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; return 1; fi
}

present() { [ -x "$browser" ] && [ -x "$driver" ]; }

install() {
  present && return 0
  log "installing chromium and chromium-driver"
  # Another checkout may hold the dpkg lock: apt waits for it instead of failing.
  as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends chromium chromium-driver >/dev/null
  present || { log "chromium or chromedriver still missing"; return 1; }
}

case "${1:-}" in
  install) install ;;
  check) present ;;
  *) echo "usage: $0 install|check" >&2; exit 2 ;;
esac
