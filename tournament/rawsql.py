"""Plain-SQL reads on hot paths (an action, a table's screen part, a socket's connect),
where building the query through the ORM cost more than running it."""

from __future__ import annotations


def first(model, sql: str, params: list):
    """The first `model` instance `sql` returns, or None."""
    return next(iter(model.objects.raw(sql, params)), None)
