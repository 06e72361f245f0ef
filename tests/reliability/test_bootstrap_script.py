"""scripts/bootstrap.sh on a fresh Debian: python3 without its venv package (no
ensurepip) could not make the tools' venv, and the README's two commands stopped
there. It installs python3.X-venv with apt first.

The real script runs in a copy of scripts/, with stand-ins on PATH for what a fresh
machine lacks or would download: python3.11 (the real interpreter, except that
ensurepip and venv fail until the venv package is "installed"), apt-get (notes what it
is asked and "installs" the package), dpkg-query (which says so), and the tools venv's
pip and uv (no network).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tournament.loadtest.servers import ROOT

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="apt is run as root (CI is)")
VERSION = "{}.{}".format(*sys.version_info[:2])


def _stub(path: Path, text: str) -> None:
    path.write_text(textwrap.dedent(text))
    path.chmod(0o755)


def _machine(tmp_path: Path) -> tuple[Path, dict]:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "scripts", repo / "scripts")
    stubs = tmp_path / "bin"
    stubs.mkdir()
    have = tmp_path / "venv-package-installed"
    _stub(
        stubs / "python3.11",
        f"""\
        #!/bin/bash
        if [ "$1 $2" = "-c import ensurepip" ] && [ ! -e {have} ]; then exit 1; fi
        if [ "$1 $2" = "-m venv" ]; then
          [ -e {have} ] || {{ echo "ensurepip is not available" >&2; exit 1; }}
          echo "venv $3" >> {tmp_path}/calls
          sleep "${{SLOW_VENV:-0}}"  # a venv and pip take a while: another command may start meanwhile
          mkdir -p "$3/bin"
          printf '#!/bin/bash\\nexit 0\\n' > "$3/bin/python"  # its pip install of uv
          printf '#!/bin/bash\\necho "uv $*" >> {tmp_path}/calls\\n' > "$3/bin/uv"
          chmod +x "$3/bin/python" "$3/bin/uv"; exit 0
        fi
        exec {sys.executable} "$@"
        """,
    )
    _stub(
        stubs / "apt-get",
        f"""\
        #!/bin/bash
        echo "apt-get $*" >> {tmp_path}/calls
        case "$*" in *python{VERSION}-venv*) sleep "${{SLOW_APT:-0}}"; touch {have};; esac
        """,
    )
    # dpkg's own answer for the venv package (what this machine really has is not asked).
    _stub(
        stubs / "dpkg-query",
        f"""\
        #!/bin/bash
        case "${{@: -1}}" in
          python{VERSION}-venv) [ -e {have} ] && printf 'install ok installed' && exit 0;;
        esac
        exit 1
        """,
    )
    # PATH without any uv: the script makes its own tools venv.
    path = [str(stubs)] + [
        d for d in os.environ["PATH"].split(":") if d and not (Path(d) / "uv").exists()
    ]
    return repo, {**os.environ, "PATH": ":".join(path)}


def bootstrap(repo: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    """`source scripts/bootstrap.sh ARGS` in the copy, then "ready" once it is done."""
    return subprocess.run(
        ["bash", "-c", f"source scripts/bootstrap.sh {' '.join(args)}; echo ready"],
        cwd=repo,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_python_without_its_venv_package_gets_it_from_apt(tmp_path):
    repo, env = _machine(tmp_path)
    done = bootstrap(repo, env, "--group dev")
    assert done.returncode == 0 and done.stdout.strip().endswith("ready"), done.stderr
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls[0] == "apt-get update -qq"
    assert calls[1] == (
        "apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "
        f"python{VERSION}-venv"
    )
    assert calls[2] == "venv .run/tools"
    assert calls[3].startswith("uv sync --frozen --python") and calls[3].endswith("--group dev")
    # Once there, nothing is installed again.
    (tmp_path / "calls").unlink()
    shutil.rmtree(repo / ".run")
    done = bootstrap(repo, env)
    assert done.returncode == 0, done.stderr
    assert not any(c.startswith("apt-get") for c in (tmp_path / "calls").read_text().splitlines())


def _together(repo: Path, env: dict) -> list[str]:
    """Two bootstraps started at once, as the README's two commands may be; their outputs."""
    runs = [
        subprocess.Popen(
            ["bash", "-c", "source scripts/bootstrap.sh; echo ready"],
            cwd=repo,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = []
    for run in runs:
        out, err = run.communicate(timeout=60)
        assert run.returncode == 0 and out.strip().endswith("ready"), err
        outs.append(out)
    return outs


def test_the_two_commands_started_together_make_the_tools_once(tmp_path):
    """The demo and the tests started at once on a fresh machine: the second waits
    for the first's tools venv instead of making it again over the first's pip install."""
    repo, env = _machine(tmp_path)
    (tmp_path / "venv-package-installed").touch()
    env = {**env, "SLOW_VENV": "1"}
    _together(repo, env)
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls.count("venv .run/tools") == 1, calls
    assert sum(c.startswith("uv sync") for c in calls) == 2, calls


def test_the_two_commands_started_together_install_a_package_once(tmp_path):
    """Both commands find the venv package missing; the second waits for the first's
    apt-get and, with the lock held, finds it installed instead of installing it again."""
    repo, env = _machine(tmp_path)
    env = {**env, "SLOW_APT": "1"}
    outs = _together(repo, env)
    calls = (tmp_path / "calls").read_text().splitlines()
    assert sum(c.startswith("apt-get install") for c in calls) == 1, calls
    assert sum(c.startswith("apt-get update") for c in calls) == 1, calls
    assert sum("Installing system packages" in out for out in outs) == 1, outs
    assert calls.count("venv .run/tools") == 1, calls


def test_uv_is_given_the_interpreter_not_a_shim_that_runs_it(tmp_path):
    """python3.11 found on PATH may be a version manager's shim (a script that runs the
    interpreter): given that path, uv took it for another interpreter than the one the
    .venv was made from and made the .venv anew at every run of either command."""
    repo, env = _machine(tmp_path)
    (tmp_path / "venv-package-installed").touch()
    done = bootstrap(repo, env)
    assert done.returncode == 0 and done.stdout.strip().endswith("ready"), done.stderr
    sync = next(c for c in (tmp_path / "calls").read_text().splitlines() if c.startswith("uv sync"))
    # The stub python3.11 runs this interpreter: its own path is what uv gets.
    assert f" --python {sys.executable} " in f"{sync} ", sync
    assert str(tmp_path / "bin") not in sync, sync
