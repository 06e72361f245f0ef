"""barnga/eagerwrite.py: Daphne's sockets send at once when nothing is queued, and
otherwise behave as Twisted's buffered transport does (order, back-pressure, errors).

Each case runs eager_write_probe.py in a process of its own (a Twisted reactor starts
once per process), with the patch (`eager`) and without it (`plain`), over loopback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = Path(__file__).with_name("eager_write_probe.py")


def probe(mode: str, case: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(PROBE), mode, case],
        capture_output=True,
        text=True,
        timeout=90,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("mode", ["eager", "plain"])
def test_every_byte_arrives_in_order(mode):
    out = probe(mode, "stream")
    assert out["writes"] == 300
    assert out["same_bytes"] is True
    assert out["write_errors"] == 0


def test_small_writes_skip_the_writer_registration_and_large_ones_still_buffer():
    eager, plain = probe("eager", "stream"), probe("plain", "stream")
    # Twisted registers the socket as a writer for every message (then unregisters it).
    assert plain["add_writer_first_100"] == 100
    # Eagerly, the first 100 (small, read promptly) went straight out...
    assert eager["add_writer_first_100"] == 0
    # ...while what the kernel could not take of the large ones went through
    # Twisted's buffer, after which the bytes still arrived whole and in order.
    assert eager["add_writer"] > 0
    assert eager["same_bytes"] is True


@pytest.mark.parametrize("mode", ["eager", "plain"])
def test_a_write_to_a_reset_connection_reports_it_lost_and_raises_nothing(mode):
    out = probe(mode, "reset")
    assert out["writes"] == 5
    assert out["write_errors"] == 0
    assert out["lost"] is True


def test_the_web_process_installs_it():
    """Daphne loads barnga.asgi; its sockets (twisted.internet.tcp.Server) then write eagerly."""
    code = (
        "import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'barnga.settings');"
        "import barnga.asgi; from twisted.internet import tcp;"
        "print(tcp.Server.write.__module__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=90,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.stdout.strip().splitlines()[-1] == "barnga.eagerwrite"


def test_a_transport_not_shaped_as_expected_is_left_alone(monkeypatch, caplog):
    from twisted.internet import tcp

    from barnga import eagerwrite

    def someone_elses_write(self, data):
        raise AssertionError("not called here")

    monkeypatch.setattr(eagerwrite, "_installed", False)
    monkeypatch.setattr(tcp.Connection, "write", someone_elses_write, raising=False)
    assert eagerwrite.install() is False
    assert tcp.Connection.write is someone_elses_write
    assert "not installed" in caplog.text
