"""The web process's garbage-collector thresholds (barnga/asgi.py, BARNGA_GC_THRESHOLD)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import gc, barnga.asgi; print(gc.get_threshold())"


def run_asgi(**env):
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    base.pop("BARNGA_GC_THRESHOLD", None)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "barnga.settings", "BARNGA_RUN_TIMERS": "0", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_web_process_collects_at_the_configured_thresholds():
    done = run_asgi()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(50000, 10, 10)"
    done = run_asgi(BARNGA_GC_THRESHOLD=" 20000, 5,7 ")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(20000, 5, 7)"


def test_a_bad_threshold_stops_the_process_with_a_clear_message():
    for bad in ("50000", "a,b,c", "50000,10,-1", "0,10,10", "1,2,3,4"):
        done = run_asgi(BARNGA_GC_THRESHOLD=bad)
        assert done.returncode != 0, bad
        assert "BARNGA_GC_THRESHOLD must be three whole numbers" in done.stderr, bad
