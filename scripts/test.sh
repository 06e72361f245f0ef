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
# The two-process and load tests run a private PostgreSQL from Debian's binaries, which
# are not on PATH (tests/conftest.py finds /usr/lib/postgresql/*/bin/initdb).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_system_packages __no_such_command__ postgresql

WORK="$(mktemp -d "${TMPDIR:-/tmp}/barnga-test.XXXXXX")"
REDIS_PID=""
PYTEST_PID=""
cleanup() {
  # A run stopped early (a CI job cancelled): pytest is interrupted as by Ctrl-C, so
  # its fixtures stop the servers they started, before Redis and the files go.
  if [ -n "$PYTEST_PID" ]; then kill -INT "$PYTEST_PID" 2>/dev/null; wait "$PYTEST_PID" 2>/dev/null; fi
  [ -n "$REDIS_PID" ] && kill "$REDIS_PID" 2>/dev/null && wait "$REDIS_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
# Bash runs a trap only once its foreground command ends: pytest runs in the
# background and is waited for, so a signal stops the run at once. (It starts with
# job control on: without, a background command ignores SIGINT, and Python then
# never raises KeyboardInterrupt.)
trap 'exit 130' INT
trap 'exit 143' TERM

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
set +e
set -m
"$VENV_PY" -m pytest "$@" &
PYTEST_PID=$!
set +m
wait "$PYTEST_PID"
status=$?
PYTEST_PID=""
set -e
# pytest's 5 means "no tests collected": with the suite selected that is a failure.
exit "$status"
