"""Plain-SQL reads on hot paths (an action, a table's screen part, a socket's connect),
where building the query through the ORM cost more than running it."""

from __future__ import annotations

from django.db import connection, connections


def first(model, sql: str, params: list):
    """The first `model` instance `sql` returns, or None."""
    return next(iter(model.objects.raw(sql, params)), None)


def columns(model, alias: str) -> str:
    """`model`'s columns under table alias `alias`, in field order (see `instances`)."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


_converters: dict[tuple, tuple] = {}


def _field_converters(db, model, field) -> tuple:
    """(the column expression, its converters), as SQLCompiler.apply_converters uses them."""
    key = (db.vendor, model, field.attname)
    found = _converters.get(key)
    if found is None:
        col = field.get_col(model._meta.db_table)
        found = _converters[key] = (
            col,
            [*db.ops.get_db_converters(col), *col.get_db_converters(db)],
        )
    return found


def instances(row, *models, using: str = "default") -> list:
    """One instance per model from a row of their `columns`, side by side, converted
    as the ORM converts them (JSON, dates on SQLite…); None for a model whose primary
    key is NULL (an outer join that found nothing)."""
    db = connections[using]
    out, start = [], 0
    for model in models:
        fields = model._meta.concrete_fields
        values = list(row[start : start + len(fields)])
        start += len(fields)
        if values[fields.index(model._meta.pk)] is None:
            out.append(None)
            continue
        for i, field in enumerate(fields):
            col, converters = _field_converters(db, model, field)
            for convert in converters:
                values[i] = convert(values[i], col, db)
        out.append(model.from_db(using, [f.attname for f in fields], values))
    return out
