"""A finished workshop's debrief, built once per web process and kept.

Every download of the report or an export built the whole document again: at 200
players with two rounds, 1.4 s of CPU for the document and 0.9 s more for the
report's page and charts, each time, while another class on the same server waited
(the 200-student review). Once the tournament is over (the debrief phase) nothing
is played, joined or renamed; what can still change (a player leaving) bumps the
workshop's version, and anything at a table bumps the table's. Those versions are
the key, read fresh for each request: a change since is a new key, so a kept
document is never older than the rows it was built from.

During the tournament nothing is kept: the "so far" report changes with each move.
What is kept are texts (the report's body, the CSV tables, the JSON), not the
document they are made from (50 MB of Python objects at 200 players with two
rounds; the texts about 15 MB). In the process's memory, not the shared cache: a
restart (a new version of the app) starts empty. At most KEEP workshops are kept,
the last used first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from django.db.models import Sum

from tournament.models import Phase, Workshop

T = TypeVar("T")

KEEP = 2

_lock = threading.Lock()
_kept: OrderedDict[tuple, dict] = OrderedDict()


def key(workshop: Workshop) -> tuple | None:
    """What a kept build is good for; None while the tournament is on. Read once per
    request: the view's workshop instance holds it."""
    if workshop.phase != Phase.DEBRIEF:
        return None
    if not hasattr(workshop, "_report_key"):
        tables = workshop.tables.aggregate(v=Sum("version"))["v"] or 0
        workshop._report_key = (workshop.pk, workshop.created_at, workshop.version, tables)
    return workshop._report_key


def kept(workshop: Workshop, part: str, build: Callable[[], T]) -> T:
    """`build()`, or what it returned for this workshop as it is now."""
    k = key(workshop)
    if k is None:
        return build()
    with _lock:
        entry = _kept.get(k)
        if entry is not None and part in entry:
            _kept.move_to_end(k)
            return entry[part]
    value = build()
    with _lock:
        # An older version of the same workshop is of no more use.
        for old in [o for o in _kept if o[0] == k[0] and o != k]:
            del _kept[old]
        _kept.setdefault(k, {})[part] = value
        _kept.move_to_end(k)
        while len(_kept) > KEEP:
            _kept.popitem(last=False)
    return value


def forget() -> None:
    """Drop everything kept (tests)."""
    with _lock:
        _kept.clear()
