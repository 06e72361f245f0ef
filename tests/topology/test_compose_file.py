"""docker-compose.yml describes the production topology (no Docker engine needed here).

Two web processes of one image behind a proxy that spreads websockets over both
without sticky sessions, Redis, PostgreSQL with a named volume, health checks, and
migrations run once before any web process. When a compose client is installed
(`docker compose` or Debian's `docker-compose`), its own validation runs as well.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import yaml

from tournament.loadtest.servers import ROOT

COMPOSE = ROOT / "docker-compose.yml"
NGINX = ROOT / "deploy" / "nginx.conf"
WEBS = ("web1", "web2")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_services_are_two_webs_a_proxy_redis_postgresql_and_a_one_shot_migration(compose):
    assert set(compose["services"]) == {"migrate", *WEBS, "proxy", "redis", "db"}
    web1, web2 = (compose["services"][name] for name in WEBS)
    assert web1 == web2  # the same service twice: same image, settings and checks
    assert web1["image"] == compose["services"]["migrate"]["image"]
    env = web1["environment"]
    assert env["REDIS_URL"].startswith("redis://redis:")
    assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
    assert env["PRODUCTION"] == "1" and "SECRET_KEY" in env


def test_the_web_image_runs_daphne_with_the_locked_dependencies():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "uv sync --frozen --no-dev" in dockerfile
    cmd = re.search(r"^CMD (.+)$", dockerfile, re.M).group(1)
    assert '"daphne"' in cmd and "barnga.asgi:application" in cmd and "--proxy-headers" in cmd


def test_every_long_running_service_has_a_health_check(compose):
    services = compose["services"]
    for name in (*WEBS, "proxy", "redis", "db"):
        assert services[name]["healthcheck"]["test"], name
    for name in WEBS:
        assert "/healthz" in " ".join(services[name]["healthcheck"]["test"])
    assert "/healthz" in " ".join(services["proxy"]["healthcheck"]["test"])


def test_start_order_migrates_once_before_the_webs_and_the_proxy_waits_for_them(compose):
    services = compose["services"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["migrate"]["restart"] == "no"
    for name in WEBS:
        needs = services[name]["depends_on"]
        assert needs["migrate"]["condition"] == "service_completed_successfully"
        assert needs["db"]["condition"] == needs["redis"]["condition"] == "service_healthy"
        assert "command" not in services[name]  # the image's daphne, never `migrate`
    assert {n: c["condition"] for n, c in services["proxy"]["depends_on"].items()} == {
        name: "service_healthy" for name in WEBS
    }


def test_postgresql_keeps_its_data_in_a_named_volume(compose):
    assert "pgdata" in compose["volumes"]
    assert "pgdata:/var/lib/postgresql/data" in compose["services"]["db"]["volumes"]


def test_the_proxy_spreads_websockets_over_both_webs_without_stickiness(compose):
    conf = NGINX.read_text()
    upstream = re.search(r"upstream barnga_web \{(.*?)\}", conf, re.S).group(1)
    assert re.findall(r"server (\S+?):8000", upstream) == list(WEBS)
    assert not re.search(r"\b(ip_hash|hash|sticky)\b", upstream)
    assert "proxy_set_header Upgrade $http_upgrade" in conf
    assert "proxy_set_header Connection $connection_upgrade" in conf
    assert "X-Forwarded-For" in conf
    # The scheme a TLS front says is passed on; $scheme alone (always http here) made
    # every https page redirect to itself.
    proto = re.search(r"map \$http_x_forwarded_proto \$forwarded_proto \{(.*?)\}", conf, re.S)
    assert re.search(r"default\s+\$http_x_forwarded_proto;", proto.group(1))
    assert re.search(r'""\s+\$scheme;', proto.group(1))
    assert "proxy_set_header X-Forwarded-Proto $forwarded_proto;" in conf
    mounted = compose["services"]["proxy"]["volumes"][0]
    assert mounted.startswith("./deploy/nginx.conf:")
    assert compose["services"]["web1"]["environment"]["TRUST_PROXY"] == "1"
    assert compose["services"]["web1"]["environment"]["PROXY_HOPS"] == "${PROXY_HOPS:-1}"


def test_a_compose_client_accepts_the_file():
    if (
        shutil.which("docker")
        and subprocess.run(
            ["docker", "compose", "version"], capture_output=True, check=False
        ).returncode
        == 0
    ):
        command = ["docker", "compose"]
    elif shutil.which("docker-compose"):
        command = ["docker-compose"]
    else:
        pytest.skip("no compose client installed (docker compose, docker-compose)")
    env = {**os.environ, "SECRET_KEY": "x" * 50, "POSTGRES_PASSWORD": "secret"}
    done = subprocess.run(
        [*command, "-f", str(COMPOSE), "config", "-q"],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # Without the secrets it refuses to start rather than run with a default.
    env.pop("SECRET_KEY")
    refused = subprocess.run(
        [*command, "-f", str(COMPOSE), "config", "-q"],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert refused.returncode != 0
