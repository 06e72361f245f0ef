#!/usr/bin/env bash
# The whole test suite: installs what it needs (uv, the locked dependencies,
# redis-server, postgresql and chromium from apt), starts a private Redis on a free port,
# runs pytest, and cleans up on exit. Extra arguments go to pytest
# (e.g. `bash scripts/test.sh -m browser`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh" --group dev

need_system_packages redis-server redis-server chromium chromium
# Screenshots show the gesture palette: an emoji font (a package, not a command).
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || need_system_packages __no_such_command__ fonts-noto-color-emoji
# The two-process and load tests run a private PostgreSQL from Debian's binaries.
need_postgresql_server

WORK="$(mktemp -d "${TMPDIR:-/tmp}/barnga-test.XXXXXX")"
REDIS_PID=""
PYTEST_PID=""
STOPPED_BY=""
cleanup() {
  # A run stopped early (a CI job cancelled, Ctrl-C): pytest is interrupted as by
  # Ctrl-C, so its fixtures stop the servers they started, before Redis and the files
  # go. A Ctrl-C at the terminal reaches pytest itself (one process group): it gets
  # 10 s to finish on its own, as a second one would cut its clean-up short.
  if [ -n "$PYTEST_PID" ]; then
    if [ "$STOPPED_BY" = INT ]; then
      for _ in $(seq 100); do kill -0 "$PYTEST_PID" 2>/dev/null || break; sleep 0.1; done
    fi
    kill -INT "$PYTEST_PID" 2>/dev/null
    wait "$PYTEST_PID" 2>/dev/null
  fi
  [ -n "$REDIS_PID" ] && kill "$REDIS_PID" 2>/dev/null && wait "$REDIS_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
# Bash runs a trap only once its foreground command ends: pytest runs in the
# background and is waited for, so a signal stops the run at once.
trap 'STOPPED_BY=INT; exit 130' INT
trap 'STOPPED_BY=TERM; exit 143' TERM

REDIS_PORT="$("$VENV_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
  --dir "$WORK" --daemonize no >"$WORK/redis.log" 2>&1 &
REDIS_PID=$!
for _ in $(seq 50); do
  "$VENV_PY" -c "import redis,sys; redis.Redis(port=$REDIS_PORT).ping()" 2>/dev/null && break
  sleep 0.1
done
export BARNGA_TEST_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export BARNGA_CHROMIUM="$(command -v chromium)"
# The SQLite test database lives in this run's own directory: two runs in one checkout
# would otherwise share (and each remove at exit) the same file.
export BARNGA_TEST_DB="${BARNGA_TEST_DB:-$WORK/test-db.sqlite3}"

"$VENV_PY" -m ruff check .
"$VENV_PY" -m ruff format --check .  # the whole tree is in ruff's format since session 39
run_pytest() {
  # In this process group (a kill of the job's group reaches it) and on this terminal
  # (--pdb reads it; a background command would read /dev/null); a background command
  # ignores SIGINT, so pytest starts with Python's own Ctrl-C handling back.
  "$VENV_PY" -c 'import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); import pytest; sys.exit(pytest.console_main())' "$@" <&0 &
  PYTEST_PID=$!
  wait "$PYTEST_PID"
  local status=$?
  PYTEST_PID=""
  return "$status"
}
set +e
if [ "$#" -gt 0 ]; then
  run_pytest "$@"
  status=$?
else
  # The whole suite: most of it waits on browsers and servers, so it runs on
  # BARNGA_TEST_WORKERS processes at once (each with its own test database and Redis
  # database: tests/conftest.py); then the tests that start several servers of their
  # own and load the machine on purpose (marked serial) run one after another.
  echo "== tests run side by side on ${BARNGA_TEST_WORKERS:-2} processes"
  run_pytest -n "${BARNGA_TEST_WORKERS:-2}" --dist worksteal -m "not serial"
  status=$?
  echo "== tests that run alone"
  run_pytest -m serial
  second=$?
  [ "$status" -eq 0 ] && status=$second
fi
set -e
# pytest's 5 means "no tests collected": with the suite selected that is a failure.
exit "$status"
