#!/usr/bin/env bash
# Start Barnga with a ready demo workshop on http://127.0.0.1:8000 (HOST/PORT to change;
# GAME=seven_up|all_fives|three_tricks for a demo of another base game).
# Installs what it needs (uv and the locked dependencies), migrates the SQLite
# database, serves with Daphne, and prints the demo facilitator's login once the
# server answers.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-*}"
"$VENV_PY" manage.py migrate --noinput >/dev/null
# An IPv6 address goes in brackets in an address to open (HOST=:: is every interface).
case "$HOST" in *:*) URL_HOST="[$HOST]" ;; *) URL_HOST="$HOST" ;; esac
DEMO=(manage.py demo --url "http://$URL_HOST:$PORT" --game "${GAME:-five_tricks}")
# The workshop and its bots now (a refusal stops here), seated in the lobby, no clock.
"$VENV_PY" "${DEMO[@]}" --setup-only
# Daphne may take a minute to listen on a loaded machine: a waiter starts the first
# round and prints the log-in and address only once it answers. The server keeps this
# shell's process id ($$, exec below), so the waiter stops when it does, started or not.
"$VENV_PY" "${DEMO[@]}" --wait-for-server $$ &
exec "$VENV_PY" -m daphne -b "$HOST" -p "$PORT" barnga.asgi:application
