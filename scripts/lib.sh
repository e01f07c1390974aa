# Shared set-up steps for scripts/run and scripts/test. Sourced, not executed.
# Every step checks first and only installs or starts what is missing, so the
# scripts are cheap to re-run and work on a bare Debian machine as well as on
# one that already runs PostgreSQL and Redis.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${COINLAB_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"

log() { printf '[coinlab] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; return 1; fi
}

_apt_updated=0
apt_install() {
  # apt_install PKG... : install Debian packages that are not installed yet.
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null; then
    log "apt-get not available; please install: ${missing[*]}"; return 1
  fi
  if [ $_apt_updated = 0 ]; then as_root apt-get update -qq; _apt_updated=1; fi
  log "installing Debian packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_report_libs() {
  # WeasyPrint's libraries, fonts, Chromium for kaleido charts and browser tests,
  # poppler for reading PDFs back in tests.
  apt_install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
              chromium poppler-utils gettext
}

ensure_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating virtualenv $VENV"
    "$PY" -m venv "$VENV" || { apt_install python3-venv && "$PY" -m venv "$VENV"; }
  fi
  local stamp="$VENV/.coinlab-installed"
  if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
    log "installing Python packages (pip install -e .[dev])"
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
    "$VENV/bin/python" -m pip install -q -e "$ROOT[dev]" 2>&1 | grep -v -E '^(WARNING: Location|  )' >&2 || true
    "$VENV/bin/python" -c "import django, celery, weasyprint, plotly, rest_framework" \
      || { log "Python packages failed to install"; return 1; }
    touch "$stamp"
  fi
}

ensure_postgres() {
  # A PostgreSQL reachable on 127.0.0.1:5432 as user postgres without a password.
  if psql_ok; then return 0; fi
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    apt_install postgresql postgresql-client
  fi
  local ver
  ver=$(ls /etc/postgresql | sort -n | tail -1)
  if ! psql_ok; then
    log "starting PostgreSQL $ver"
    as_root pg_ctlcluster --skip-systemctl-redirect "$ver" main start 2>/dev/null || true
    sleep 1
  fi
  if ! psql_ok; then
    # A fresh Debian cluster asks for passwords on TCP: allow local trust for tests.
    local hba="/etc/postgresql/$ver/main/pg_hba.conf"
    if ! grep -q "coinlab-trust" "$hba"; then
      log "allowing trust auth on loopback in $hba"
      as_root sed -i "1i host all all 127.0.0.1/32 trust # coinlab-trust\nhost all all ::1/128 trust # coinlab-trust" "$hba"
    fi
    as_root pg_ctlcluster --skip-systemctl-redirect "$ver" main reload 2>/dev/null \
      || as_root pg_ctlcluster --skip-systemctl-redirect "$ver" main restart
    for _ in 1 2 3 4 5 6 7 8 9 10; do psql_ok && break; sleep 1; done
  fi
  psql_ok || { log "PostgreSQL is not reachable on 127.0.0.1:5432"; return 1; }
}

psql_ok() {
  command -v psql >/dev/null && psql -h 127.0.0.1 -U postgres -d postgres -tAc 'select 1' >/dev/null 2>&1
}

ensure_redis() {
  if redis_ok; then return 0; fi
  command -v redis-server >/dev/null || apt_install redis-server
  log "starting Redis on 127.0.0.1:6379"
  mkdir -p /tmp/coinlab-redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no \
    --dir /tmp/coinlab-redis --logfile /tmp/coinlab-redis/redis.log
  for _ in 1 2 3 4 5 6 7 8 9 10; do redis_ok && break; sleep 0.5; done
  redis_ok || { log "Redis is not reachable on 127.0.0.1:6379"; return 1; }
}

redis_ok() {
  if command -v redis-cli >/dev/null; then
    redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG
  else
    (exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\r\n' >&3 && head -c 5 <&3 | grep -q PONG) 2>/dev/null
  fi
}
