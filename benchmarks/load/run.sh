#!/usr/bin/env bash
# Load test on loopback: gunicorn + PostgreSQL + Redis on this machine, then the driver.
#   benchmarks/load/run.sh [DURATION_S]
# Environment: LOAD_DB (default coinlab_load), LOAD_REDIS_DB (12), LOAD_PORT (8100),
# LOAD_WORKERS (4), LOAD_THREADS (2), LOAD_SESSIONS (40).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "${LOAD_ROOT:-$ROOT}"  # LOAD_ROOT: a frozen copy of the code (git archive HEAD) to measure
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
DUR="${1:-300}"
DB="${LOAD_DB:-coinlab_load}"
PORT="${LOAD_PORT:-8100}"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB"
export REDIS_URL="redis://127.0.0.1:6379/${LOAD_REDIS_DB:-12}"
export SECRET_KEY="load-test-secret-key-not-for-production-0123456789abcdef"
export COINLAB_SECURE_COOKIES=0 DEBUG=0 LOG_LEVEL=WARNING
mkdir -p var/load
psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $DB" >/dev/null
redis-cli -n "${LOAD_REDIS_DB:-12}" flushdb >/dev/null
"$ROOT"/.venv/bin/python manage.py migrate -v0
"$ROOT"/.venv/bin/python benchmarks/load/setup_load.py --sessions "${LOAD_SESSIONS:-40}" --out var/load/people.json
"$ROOT"/.venv/bin/gunicorn -c benchmarks/load/gunicorn_conf.py coinlab.wsgi:application --bind "127.0.0.1:$PORT" --workers "${LOAD_WORKERS:-4}" \
  --threads "${LOAD_THREADS:-2}" --timeout 60 --access-logfile - --access-logformat '%(s)s %(m)s %(U)s %(M)s' \
  > var/load/gunicorn.log 2>&1 &
GPID=$!
# The worker of the "live" queue: draws every seat's region after each move (issue #8,
# facilitation.tasks.live_predraw); its CPU is not in the driver's gunicorn figure.
"$ROOT"/.venv/bin/celery -A coinlab worker -Q live --pool=prefork --concurrency=1 --without-gossip --without-mingle \
  --without-heartbeat --loglevel=WARNING -n "load-live-$$@%h" > var/load/celery-live.log 2>&1 &
CPID=$!
trap 'kill $GPID $CPID 2>/dev/null; wait $GPID $CPID 2>/dev/null' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done
"$ROOT"/.venv/bin/python benchmarks/load/driver.py --base "http://127.0.0.1:$PORT" --people var/load/people.json \
  --duration "$DUR" --server-pid "$GPID" --db-name "$DB" --think ${LOAD_THINK:-10 30} --out var/load/result.json
