"""Reading the JSON the command-line tools and the sockets are given, without a traceback,
and checking the keys of an object read from it.

``json.loads`` raises more than JSONDecodeError: a document nested a few thousand
levels deep overflows the recursion limit, and a number of more than 4,300 digits
is refused with a plain ValueError. A file saved by a Windows editor may start
with a byte-order mark. Each is bad input, said in one sentence.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence


class BadJSON(ValueError):
    """The text is not a JSON document this program can read; str() says why."""


def parse(text: str) -> object:
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadJSON(str(exc)) from None
    except RecursionError:
        raise BadJSON("it is nested too deeply") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise BadJSON("a number in it has more than 4,300 digits") from None


def check_keys(
    keys: Iterable[object], known: Sequence[str], what: str, *, required: bool = False
) -> None:
    """Refuse (ValueError) a key not ``known``, naming the known ones; with ``required``,
    a known key missing too. ``what`` names a key: "rule knob" -> "Unknown rule knob(s)"."""
    keys = list(keys)
    unknown = sorted(str(k) for k in keys if k not in known)
    if unknown:
        raise ValueError(f"Unknown {what}(s): {', '.join(unknown)} (known: {', '.join(known)}).")
    if required:
        missing = [k for k in known if k not in keys]
        if missing:
            raise ValueError(f"Missing {what}(s): {', '.join(missing)}.")
