"""Settings for the test suite: the tests drive the clock themselves (timers.tick)."""

from barnga.settings import *  # noqa: F403

BARNGA_RUN_TIMERS = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
