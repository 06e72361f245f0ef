# Sourced by scripts/demo.sh and scripts/test.sh: make the project's virtualenv
# from the lockfile, with nothing on the machine but Python 3.11+.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export UV_PYTHON_DOWNLOADS=never
UV_VERSION="0.13.9"

PY="$(command -v python3.11 || command -v python3 || true)"
if [ -z "$PY" ]; then
  echo "Python 3.11 or newer is needed (python3 not found)." >&2
  exit 1
fi
"$PY" - <<'PY' || { echo "Python 3.11 or newer is needed." >&2; exit 1; }
import sys
sys.exit(0 if sys.version_info >= (3, 11) else 1)
PY

# The README's two commands may be started together on a fresh machine (the demo in
# one terminal, the tests in another): both would run apt-get, or make the tools' venv
# and pip-install uv into it, at the same time. Each install waits for the other's.
# (flock is util-linux's, on every Debian; where it is missing, installs go unlocked.)
install_lock() {
  command -v flock >/dev/null 2>&1 || return 0
  mkdir -p "$ROOT/.run"
  exec {INSTALL_LOCK}>"$ROOT/.run/install.lock"
  flock "$INSTALL_LOCK"
}
install_unlock() {
  [ -n "${INSTALL_LOCK:-}" ] || return 0
  exec {INSTALL_LOCK}>&-
  INSTALL_LOCK=""
}

# apt install of the named Debian packages when their command is missing.
need_system_packages() {
  local missing=()
  while [ "$#" -gt 0 ]; do
    command -v "$1" >/dev/null 2>&1 || missing+=("$2")
    shift 2
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "Please install: ${missing[*]} (apt-get install -y --no-install-recommends ${missing[*]})" >&2
      return 1
    fi
  fi
  # One at a time with the project's other command (install_lock), and waiting for
  # dpkg's own lock, which a fresh machine's automatic updates may hold a while.
  install_lock
  # Looked for again with the lock held: the other command may have installed them.
  local still=() status
  for pkg in "${missing[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    case "$status" in *" ok installed") ;; *) still+=("$pkg") ;; esac
  done
  if [ "${#still[@]}" -gt 0 ]; then
    echo "Installing system packages: ${still[*]} ..."
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 \
      --no-install-recommends "${still[@]}" >/dev/null
  fi
  install_unlock
}

# PostgreSQL's server from Debian's package, whose binaries are not on PATH (the tests
# and bench/figures.sh find /usr/lib/postgresql/*/bin/initdb).
need_postgresql_server() {
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_system_packages __no_such_command__ postgresql
}

if command -v uv >/dev/null 2>&1; then
  UV="$(command -v uv)"
else
  # A private tools venv, so nothing is installed into the system Python.
  if [ ! -x .run/tools/bin/uv ]; then
    echo "Installing uv $UV_VERSION into .run/tools ..."
    # Debian's python3 comes without venv's pip (ensurepip): it is a package of its own.
    if ! "$PY" -c 'import ensurepip' >/dev/null 2>&1; then
      need_system_packages __no_such_command__ "python$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv"
    fi
    install_lock
    # Looked for again with the lock held: the other command may have made it meanwhile.
    if [ ! -x .run/tools/bin/uv ]; then
      "$PY" -m venv .run/tools
      .run/tools/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
    fi
    install_unlock
  fi
  UV="$ROOT/.run/tools/bin/uv"
fi

# uv is given the interpreter itself, not the command that found it: a version
# manager's shim (pyenv's python3.11 is a shell script) read as another interpreter
# than the one the project's .venv was made from, and each run deleted and remade the
# .venv, under the other command's feet when both ran.
REAL_PY="$("$PY" -c 'import sys; print(sys.executable)')"
"$UV" sync --frozen --python "${REAL_PY:-$PY}" --quiet "$@"
VENV_PY="$ROOT/.venv/bin/python"
