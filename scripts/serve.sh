#!/usr/bin/env bash
# The production stack on this machine: `make serve` (or bash scripts/serve.sh).
#
#   migrate → collectstatic (hashed, compressed files) → [load_snapshot] → gunicorn
#
# Everything comes from the environment (config/settings.py reads it; nothing sets
# DJANGO_SETTINGS_MODULE). What this script defaults when unset:
#   PORT=8000 HOST=127.0.0.1     where gunicorn listens (config/gunicorn.conf.py)
#   CONN_MAX_AGE=300             persistent database connections (health-checked)
#   STATIC_MANIFEST=1            hashed static names with far-future Cache-Control
#   CACHE_URL                    unset: a redis-server is started on loopback (REDIS_PORT,
#                                6379 by default) for this run, and stopped with it
#   DATABASE_URL                 unset: SQLite (db.sqlite3) with a warning; production uses
#                                postgres://… (try it: python scripts/pgcluster.py run -- make serve)
#   LOAD_SNAPSHOT=DIR            optional: load this snapshot before serving
set -euo pipefail
cd "$(dirname "$0")/.."

PY=.venv/bin/python
export PORT="${PORT:-8000}" HOST="${HOST:-127.0.0.1}"
export CONN_MAX_AGE="${CONN_MAX_AGE:-300}" STATIC_MANIFEST="${STATIC_MANIFEST:-1}"

say() { echo "serve: $*" >&2; }

if [ -z "${DATABASE_URL:-}" ]; then
    say "warning: DATABASE_URL is not set; serving SQLite (db.sqlite3). Production: postgres://…"
fi

redis_pid=""
gunicorn_pid=""
stop() {
    [ -n "$gunicorn_pid" ] && kill -TERM "$gunicorn_pid" 2>/dev/null && wait "$gunicorn_pid" 2>/dev/null
    [ -n "$redis_pid" ] && kill -TERM "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
    return 0
}
trap stop EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

if [ -z "${CACHE_URL:-}" ]; then
    if ! command -v redis-server >/dev/null; then
        say "error: CACHE_URL is unset and redis-server is missing (bash scripts/system-deps.sh)"
        exit 1
    fi
    REDIS_PORT="${REDIS_PORT:-6379}"
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
        --maxmemory "${REDIS_MAXMEMORY:-256mb}" --maxmemory-policy allkeys-lru --loglevel warning &
    redis_pid=$!
    for _ in $(seq 50); do
        redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    redis-cli -p "$REDIS_PORT" ping >/dev/null || { say "error: redis-server did not start"; exit 1; }
    export CACHE_URL="redis://127.0.0.1:$REDIS_PORT/0"
    say "redis-server on 127.0.0.1:$REDIS_PORT (pid $redis_pid)"
fi

say "migrate"
$PY manage.py migrate --noinput -v 1
say "collectstatic"
$PY manage.py collectstatic --noinput -v 0
if [ -n "${LOAD_SNAPSHOT:-}" ]; then
    say "load_snapshot $LOAD_SNAPSHOT"
    $PY manage.py load_snapshot "$LOAD_SNAPSHOT"
fi

say "gunicorn on http://$HOST:$PORT/ (Ctrl-C stops)"
.venv/bin/gunicorn -c config/gunicorn.conf.py &
gunicorn_pid=$!
wait "$gunicorn_pid"
