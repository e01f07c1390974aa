#!/usr/bin/env bash
# Load test on loopback: nginx + gunicorn + PostgreSQL + Redis + a Celery "live" worker on this
# machine, then the driver.
#   benchmarks/load/run.sh [DURATION_S]
# Layout (LOAD_LAYOUT):
#   split  (default) the production layout of docs/operations.md: nginx in front of two pools,
#          one for the live-region polls (GET /sessions/<id>/play/live/; granian), one for
#          everything else (gunicorn), so a poll never waits in a process behind a page render.
#   single one gunicorn pool, no proxy (the layout measured before 2026-11-26).
# Environment: LOAD_DB (default coinlab_load), LOAD_REDIS_DB (12), LOAD_PORT (8100),
# LOAD_WORKERS (app pool processes, 3 split / 4 single), LOAD_THREADS (2),
# LOAD_POLL_SERVER (granian | gunicorn), LOAD_POLL_WORKERS (2 granian / 4 gunicorn), LOAD_POLL_THREADS
# (2: granian's blocking threads / 1: gunicorn's sync worker), LOAD_SESSIONS (40), LOAD_THINK ("10 30"),
# LOAD_LIVE_SCHED (idle | nice), LOAD_LIVE_NICE (10); COINLAB_SWITCH_INTERVAL (web processes, coinlab/wsgi.py; 0.001).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "${LOAD_ROOT:-$ROOT}"  # LOAD_ROOT: a frozen copy of the code (git archive HEAD) to measure
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
DUR="${1:-300}"
DB="${LOAD_DB:-coinlab_load}"
PORT="${LOAD_PORT:-8100}"
LAYOUT="${LOAD_LAYOUT:-split}"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB"
export REDIS_URL="redis://127.0.0.1:6379/${LOAD_REDIS_DB:-12}"
export SECRET_KEY="load-test-secret-key-not-for-production-0123456789abcdef"
export COINLAB_SECURE_COOKIES=0 DEBUG=0 LOG_LEVEL=WARNING
VAR="$PWD/var/load"
mkdir -p "$VAR"
if [ "$LAYOUT" = split ] && ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "[load] installing nginx (Debian package)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light >/dev/null 2>&1 \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx >/dev/null
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
# A live worker left over from an earlier run would take this run's pre-draw tasks (same queue).
if pgrep -f "celery .*-n load-live-" >/dev/null; then
  echo "[load] stopping a live worker left over from an earlier run"
  pkill -TERM -f "celery .*-n load-live-"; sleep 3; pkill -KILL -f "celery .*-n load-live-" || true
fi
psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $DB" >/dev/null
redis-cli -n "${LOAD_REDIS_DB:-12}" flushdb >/dev/null
"$ROOT"/.venv/bin/python manage.py migrate -v0
"$ROOT"/.venv/bin/python benchmarks/load/setup_load.py --sessions "${LOAD_SESSIONS:-40}" --out "$VAR/people.json"

free_port() { "$ROOT"/.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Behind nginx the proxy logs every request (with its upstream time, for the driver), as in
# docs/operations.md, so gunicorn keeps no access log of its own; alone it logs each request.
ACCESS_LOG=()
[ "$LAYOUT" = split ] || ACCESS_LOG=(--access-logfile - --access-logformat '%(s)s %(m)s %(U)s %(M)s')
gunicorn_pool() {  # name port workers threads
  "$ROOT"/.venv/bin/gunicorn -c benchmarks/load/gunicorn_conf.py coinlab.wsgi:application --bind "127.0.0.1:$2" \
    --workers "$3" --threads "$4" --timeout 60 "${ACCESS_LOG[@]}" > "$VAR/gunicorn-$1.log" 2>&1 &
}
PIDS=()
SERVER_PIDS=()
if [ "$LAYOUT" = split ]; then
  APP_PORT="$(free_port)"; POLL_PORT="$(free_port)"
  gunicorn_pool app "$APP_PORT" "${LOAD_WORKERS:-3}" "${LOAD_THREADS:-2}"; PIDS+=($!); SERVER_PIDS+=($!)
  if [ "${LOAD_POLL_SERVER:-granian}" = granian ]; then  # the poll pool of docs/operations.md
    "$ROOT"/.venv/bin/granian --interface wsgi --host 127.0.0.1 --port "$POLL_PORT" --workers "${LOAD_POLL_WORKERS:-2}" \
      --blocking-threads "${LOAD_POLL_THREADS:-2}" --runtime-threads 1 --respawn-failed-workers coinlab.wsgi:application > "$VAR/granian-poll.log" 2>&1 &
    PIDS+=($!); SERVER_PIDS+=($!); POLL_KEEPALIVE="keepalive 16;"
  else
    gunicorn_pool poll "$POLL_PORT" "${LOAD_POLL_WORKERS:-4}" "${LOAD_POLL_THREADS:-1}"; PIDS+=($!); SERVER_PIDS+=($!)
    POLL_KEEPALIVE=""
  fi
  sed -e "s#@VAR@#$VAR#g" -e "s#@PORT@#$PORT#g" -e "s#@APP_PORT@#$APP_PORT#g" -e "s#@POLL_PORT@#$POLL_PORT#g" \
    -e "s#@POLL_KEEPALIVE@#$POLL_KEEPALIVE#g" benchmarks/load/nginx.conf.in > "$VAR/nginx.conf"
  "$NGINX" -c "$VAR/nginx.conf" -p "$VAR" -g "daemon off;" > "$VAR/nginx.out" 2>&1 &
  PIDS+=($!); SERVER_PIDS+=($!)
else
  gunicorn_pool main "$PORT" "${LOAD_WORKERS:-4}" "${LOAD_THREADS:-2}"; PIDS+=($!); SERVER_PIDS+=($!)
fi
# The worker of the "live" queue: draws every seat's region after each move (issue #8,
# facilitation.tasks.live_predraw); its CPU is reported apart (group "celery"). It runs under
# Linux's SCHED_IDLE policy, as docs/operations.md advises where it shares cores with web
# processes: the scheduler then takes the core from it the moment a web process has work, so a
# poll or a decision never waits for a background drawing (a plain "nice 10" still let it finish
# its time slice). LOAD_LIVE_SCHED=nice falls back to nice (LOAD_LIVE_NICE, 10).
if [ "${LOAD_LIVE_SCHED:-idle}" = idle ] && command -v chrt >/dev/null; then
  LIVE_PRIO=(chrt --idle 0)
else
  LIVE_PRIO=(nice -n "${LOAD_LIVE_NICE:-10}")
fi
"${LIVE_PRIO[@]}" "$ROOT"/.venv/bin/celery -A coinlab worker -Q live --pool=prefork --concurrency=1 --without-gossip --without-mingle \
  --without-heartbeat --loglevel=WARNING -n "load-live-$$@%h" > "$VAR/celery-live.log" 2>&1 &
CPID=$!; PIDS+=($CPID)
stop_all() {  # TERM, then KILL what is still there after 10 s (a worker's children too)
  kill "${PIDS[@]}" 2>/dev/null
  for _ in $(seq 50); do kill -0 "${PIDS[@]}" 2>/dev/null || break; sleep 0.2; done
  pkill -KILL -f "n load-live-$$@" 2>/dev/null; kill -KILL "${PIDS[@]}" 2>/dev/null
  wait "${PIDS[@]}" 2>/dev/null
}
trap stop_all EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done
[ "$LAYOUT" = split ] && for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$POLL_PORT/" && curl -s -o /dev/null "http://127.0.0.1:$APP_PORT/" && break; sleep 0.2; done
"$ROOT"/.venv/bin/python benchmarks/load/driver.py --base "http://127.0.0.1:$PORT" --people "$VAR/people.json" \
  --duration "$DUR" --server-pid "${SERVER_PIDS[@]}" --worker-pid "$CPID" --db-name "$DB" --think ${LOAD_THINK:-10 30} \
  --access-log "$VAR/access.log" --out "$VAR/result.json"
