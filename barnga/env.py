"""Reading the environment for barnga/settings.py: a value that cannot be used stops
the process with one line naming the variable (manage.py and barnga/asgi.py print
it), not a traceback from deep in a library."""

import os
import sys
from collections.abc import Callable


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


class SettingError(RuntimeError):
    """A variable of the environment that cannot be used: its name and what it must be,
    in one line, rather than a traceback from deep in a library."""


def _env_number(name: str, default, convert, what: str):
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return convert(value)
    except ValueError:
        raise SettingError(f"{name} must be {what}, not {value!r}") from None


def env_int(name: str, default: int) -> int:
    return _env_number(name, default, int, "a whole number")


def env_float(name: str, default: float) -> float:
    return _env_number(name, default, float, "a number of seconds")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def exit_on_setting_error(start: Callable[[], object]) -> object:
    """Run `start` (what loads the settings); a SettingError ends the process with its
    line on stderr and status 2."""
    try:
        return start()
    except SettingError as exc:
        sys.stderr.write(f"barnga: {exc}\n")
        raise SystemExit(2) from None
