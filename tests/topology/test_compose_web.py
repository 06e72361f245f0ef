"""docker-compose.yml's web service, run as a real Daphne with the service's own
environment (PRODUCTION=1, TRUST_PROXY=1 …) and what the README's deploy command
adds (ALLOWED_HOSTS, HTTPS), its health check run as compose runs it. SQLite stands
in for PostgreSQL and no Redis: /healthz asks the database only.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
import yaml

from tournament.loadtest.servers import ROOT, free_port, start_daphne, stop

WEB = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web1"]


def _web_env(tmp_path, overrides: dict) -> dict:
    env = {}
    for key, value in WEB["environment"].items():
        if value.startswith("${") and ":-" in value:  # ${VAR:-default}: compose's default
            value = value.split(":-", 1)[1].rstrip("}")
        env[key] = value
    env.update(
        SECRET_KEY="k" * 50,
        DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3",
        REDIS_URL="",
        BARNGA_RUN_TIMERS="0",
    )
    return env | overrides


@pytest.fixture
def web(tmp_path):
    procs = []

    def start(**overrides) -> int:
        port = free_port()
        proc = start_daphne(port, _web_env(tmp_path, overrides), tmp_path / f"{port}.log")
        procs.append(proc)
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (tmp_path / f"{port}.log").read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return port
            except OSError:
                assert time.monotonic() < deadline, "daphne is not listening"
                time.sleep(0.1)

    yield start
    for proc in procs:
        stop(proc)


def healthcheck(port: int) -> subprocess.CompletedProcess:
    test = WEB["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    code = test[3].replace("127.0.0.1:8000", f"127.0.0.1:{port}")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)


@pytest.mark.parametrize(
    "deploy",
    [
        {},
        {"ALLOWED_HOSTS": "barnga.example.org"},
        {"ALLOWED_HOSTS": "barnga.example.org", "HTTPS": "1"},
    ],
    ids=["defaults", "the site's name", "the site's name, https"],
)
def test_the_health_check_passes_as_the_readme_deploys(web, deploy):
    """With ALLOWED_HOSTS set the check's Host (127.0.0.1) was refused with 400, and
    with HTTPS=1 redirected to https on a port that speaks http: both web processes
    unhealthy, the proxy never started."""
    done = healthcheck(web(**deploy))
    assert done.returncode == 0, done.stderr[-400:]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _get(port: int, path: str, headers: dict) -> tuple[int, str | None]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.build_opener(_NoRedirect).open(request, timeout=5) as r:
            return r.status, None
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location")


def test_behind_a_tls_front_a_page_is_served_not_redirected_to_itself(web):
    """deploy/nginx.conf passes on the front's X-Forwarded-Proto (it wrote its own
    $scheme, always http: every https page redirected to itself)."""
    port = web(ALLOWED_HOSTS="barnga.example.org", HTTPS="1")
    front = {"Host": "barnga.example.org", "X-Forwarded-For": "203.0.113.5, 172.18.0.1"}
    assert _get(port, "/join", front | {"X-Forwarded-Proto": "https"}) == (200, None)
    # Plain http is still sent to https.
    assert _get(port, "/join", front | {"X-Forwarded-Proto": "http"}) == (
        301,
        "https://barnga.example.org/join",
    )
    # Another host than the site's is refused, /healthz aside.
    assert _get(port, "/join", {"Host": "evil.example"})[0] == 400
    assert _get(port, "/healthz", {"Host": "evil.example"}) == (200, None)
