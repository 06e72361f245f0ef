"""Every service that changes a workshop runs in one transaction (services/__init__.py
says so). On SQLite a service that lost its @transaction.atomic still passes: its
select_for_update is ignored there. On PostgreSQL it raises at the first lock, as
player_rejoin did when a helper was put between it and its decorator (ee9e9b3)."""

from __future__ import annotations

import inspect

from django.db import transaction

from tournament import services

# Not wrapped, and why.
UNWRAPPED = {
    "ActResult": "a result type, not a service",
    "bot_rng": "a seeded random generator for the bots",
    "game_start": "called inside its caller's transaction, which holds the table lock",
    "player_rules_read": "one UPDATE statement",
    "player_set_connected": "one UPDATE statement",
    "round_end_now": "round_finalise under another name, which is atomic",
    "workshops_purge": "one transaction per workshop, inside",
}


def is_atomic(fn) -> bool:
    """Wrapped in @transaction.atomic, or wrapping (functools.wraps) a function that is:
    game_play and game_act keep a refused move in a second transaction, once the
    move's own has rolled back (services.play._keeps_refusals)."""
    while fn is not None:
        if any(isinstance(c.cell_contents, transaction.Atomic) for c in fn.__closure__ or ()):
            return True
        fn = getattr(fn, "__wrapped__", None)
    return False


def test_every_service_is_one_transaction():
    loose = [
        name
        for name in services.__all__
        if name not in UNWRAPPED and not is_atomic(getattr(services, name))
    ]
    assert not loose, loose
    # The list of exceptions names only what is there, and only what is not wrapped.
    assert set(UNWRAPPED) <= set(services.__all__)
    assert not [
        n
        for n in UNWRAPPED
        if inspect.isfunction(getattr(services, n)) and is_atomic(getattr(services, n))
    ]
