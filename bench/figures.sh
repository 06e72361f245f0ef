#!/usr/bin/env bash
# The scale figures of issue 10, on this machine: two Daphne processes on a private
# Redis and a private PostgreSQL (Debian's binaries), then
#   1. 1,000 players at a human pace (--think-ms 1000),
#   2. as fast as bots can (--think-ms 0), the bare group echo (--baseline) and the
#      echo storing each message (--baseline-store),
#   3. 200 joins within 10 s, 4. 500 sockets dropped at once,
#   5. one timer tick with 300 finished workshops in the database,
#   6. the other games at a human pace, 600 players each (loadtest --game),
#   7. the facilitator's panel at 200 players in Chromium: its first load, a late
#      join's push (bench/panel_push.py) and a pause's, the CPU slowed as a phone's
#      (bench/panel_pause.py); each deletes its workshop afterwards.
# Prints each benchmark's JSON line, with the machine, to stdout and to
# bench/results/figures-<date>.txt. Run it on a quiet machine: the figures are
# the machine's, not the app's alone.
#
#   bash bench/figures.sh            # everything (about 12 minutes)
#   bash bench/figures.sh load       # only 1 (or: fast, joins, reconnect, tick, games, panel)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The locked dependencies, and the servers it runs from Debian's packages, as the test
# command installs them (without redis-server every run printed 0 actions and errors).
source "$ROOT/scripts/bootstrap.sh" --group dev
need_system_packages redis-server redis-server
need_postgresql_server
PY="$ROOT/.venv/bin/python"
ONLY="${1:-all}"
PLAYERS="${PLAYERS:-1000}"
SECONDS_LOAD="${SECONDS_LOAD:-60}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/barnga-figures.XXXXXX")"
PIDS=()
AS=()
BINDIR="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort | tail -1)")"
cleanup() {
  # PostgreSQL runs under runuser when root: stop it by its data directory.
  [ -d "$WORK/pg" ] && "${AS[@]}" "$BINDIR/pg_ctl" -D "$WORK/pg" stop -m fast >/dev/null 2>&1 || true
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

REDIS_PORT="$(free_port)"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK" \
  >"$WORK/redis.log" 2>&1 &
PIDS+=($!)

PG_PORT="$(free_port)"
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$WORK"; AS=(runuser -u postgres --); fi
"${AS[@]}" "$BINDIR/initdb" -D "$WORK/pg" -U postgres --auth=trust -E UTF8 >/dev/null
# Durable commits as in production (fsync on); 200 connections for 2 pools and the clients.
# PG_OPTS adds server options (e.g. PG_OPTS="-c synchronous_commit=off" to see what
# the disk's flush time costs; not how the figures in the README were taken).
"${AS[@]}" "$BINDIR/postgres" -D "$WORK/pg" -p "$PG_PORT" -k "$WORK" -h 127.0.0.1 \
  -c max_connections=200 ${PG_OPTS:-} >"$WORK/pg.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
  "$BINDIR/pg_isready" -h 127.0.0.1 -p "$PG_PORT" -q && break
  sleep 0.2
done
"$BINDIR/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE barnga" >/dev/null

export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/barnga"
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export DJANGO_SETTINGS_MODULE=barnga.settings
cd "$ROOT"
"$PY" manage.py migrate -v 0

mkdir -p bench/results
OUT="bench/results/figures-$(date +%Y-%m-%d).txt"
{
  echo "# $(date -Is) commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
       "$(free -g | awk '/Mem:/ {print $2}') GB RAM, $(uname -sr)"
  [ -n "${PG_OPTS:-}" ] && echo "# PG_OPTS=${PG_OPTS} (a diagnostic run: not the durable settings of the README's figures)"
  echo "# PostgreSQL $("$BINDIR/postgres" --version | awk '{print $3}'), Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2), Python $("$PY" -c 'import platform; print(platform.python_version())')"
} | tee -a "$OUT"

run() {  # name, command...
  local name="$1"; shift
  echo "## $name: $*" | tee -a "$OUT"
  "$@" 2>"$WORK/$name.err" | tee "$WORK/$name.out" | tee -a "$OUT" || { echo "   (exit $?: see below)" | tee -a "$OUT"; tail -20 "$WORK/$name.err" >&2; }
  # The benchmark's own notes (e.g. the HTTP part of a join), kept beside its figures.
  grep -v '^\s' "$WORK/$name.err" | grep -iv 'traceback\|error' | tail -4 | sed 's/^/#   /' | tee -a "$OUT"
}

if [ "$ONLY" = all ] || [ "$ONLY" = load ]; then
  run load "$PY" manage.py loadtest --players "$PLAYERS" --seconds "$SECONDS_LOAD" --think-ms 1000 --servers 2
fi
if [ "$ONLY" = all ] || [ "$ONLY" = fast ]; then
  run fast "$PY" manage.py loadtest --players 200 --seconds 30 --think-ms 0 --servers 2
  run baseline "$PY" manage.py loadtest --players 200 --seconds 30 --think-ms 0 --servers 2 --baseline
  # The same echo with each message stored durably first: the floor of any app that keeps every action.
  run stored-echo "$PY" manage.py loadtest --players 200 --seconds 30 --think-ms 0 --servers 2 --baseline-store
  # The target's ratio (the app against the bare echo of the same hour), and the stored echo's.
  "$PY" - "$WORK"/{fast,baseline,stored-echo}.out <<'PY' | tee -a "$OUT"
import json, sys
rates = []
for path in sys.argv[1:]:
    try:
        rates.append(json.loads(open(path).read().strip().splitlines()[-1])["actions_per_s"])
    except (OSError, ValueError, IndexError, KeyError):
        rates.append(None)
app, bare, stored = rates
if app and bare and stored:
    print(f"# of the bare echo's rate: the app {100 * app / bare:.0f} % (issue 10 asks 40 %), "
          f"the stored echo {100 * stored / bare:.0f} %")
else:
    print("# ratios: a run printed no figures")
PY
fi
if [ "$ONLY" = all ] || [ "$ONLY" = joins ]; then
  run joins "$PY" bench/storms.py joins --joiners "${JOINERS:-200}" --within 10 --servers 2
fi
if [ "$ONLY" = all ] || [ "$ONLY" = reconnect ]; then
  run reconnect "$PY" bench/storms.py reconnect --sockets 500 --servers 2
fi
if [ "$ONLY" = all ] || [ "$ONLY" = tick ]; then
  # A database of its own, so that it times a tick over finished workshops alone: in
  # the same database as the load tests (their workshops left mid-game) a tick took
  # p50 22.5 ms at f5eacb9, against 5-6 ms on a fresh one, as it then loaded every
  # game in play to find the few its bots play (since mended in tournament/timers.py).
  "$BINDIR/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE barnga_tick" >/dev/null
  (
    export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/barnga_tick"
    "$PY" manage.py migrate -v 0
    run tick "$PY" bench/tick.py --workshops "${PAST_WORKSHOPS:-300}"
  )
fi
if [ "$ONLY" = all ] || [ "$ONLY" = games ]; then
  # 7Up7Down at tables of 5 and All Fives at tables of 3, beside Five Tricks' load above.
  for game in seven_up all_fives; do
    run "game-$game" "$PY" manage.py loadtest --players "${GAME_PLAYERS:-600}" --seconds 30 \
      --think-ms 1000 --servers 2 --game "$game"
  done
fi
if [ "$ONLY" = all ] || [ "$ONLY" = panel ]; then
  # 100 of the 200 phones away: the status then names the tables waiting for one.
  run panel-push "$PY" bench/panel_push.py --players 200 --tables 40 --away 100
  run panel-pause "$PY" bench/panel_pause.py --players 200 --tables 40 --away 100
fi
echo "# written to $OUT" >&2
