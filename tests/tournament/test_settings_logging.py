"""LOG_LEVEL as the README's settings table says it: one level for every logger."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django, json, logging; django.setup(); "
    "print(json.dumps({n: logging.getLevelName(logging.getLogger(n).getEffectiveLevel()) "
    "for n in ('', 'tournament', 'channels_redis', 'django', 'daphne')}))"
)


def levels(**env) -> dict:
    base = {k: v for k, v in os.environ.items() if k != "LOG_LEVEL"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "barnga.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("level", ["ERROR", "DEBUG"])
def test_log_level_sets_every_logger(level):
    """channels_redis stayed at INFO and Django's own logger at INFO whatever was set."""
    assert set(levels(LOG_LEVEL=level).values()) == {level}


def test_unset_the_app_and_channels_redis_log_at_info_the_rest_at_warning():
    assert levels() == {"": "WARNING", "tournament": "INFO", "channels_redis": "INFO",
                        "django": "WARNING", "daphne": "WARNING"}  # fmt: skip
