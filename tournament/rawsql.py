"""Plain-SQL reads on hot paths (an action, a table's screen part, a socket's connect),
where building the query through the ORM cost more than running it."""

from __future__ import annotations

import functools

from django.db import connection, connections
from django.db.models import signals
from django.db.models.base import ModelState
from django.utils import timezone


def first(model, sql: str, params: list):
    """The first `model` instance `sql` returns, or None."""
    return next(iter(model.objects.raw(sql, params)), None)


def prepared_cursor(db=None):
    """A cursor for the statements run on every action: on PostgreSQL it binds
    parameters on the server, so psycopg prepares a statement once per connection
    (after `prepare_threshold` runs, set in settings) and PostgreSQL stops planning
    it each time. Django's own cursors bind on the client and never prepare; planning
    an action's two reads took PostgreSQL longer than running them (pg_stat_statements
    at 200 players). psycopg forgets its prepared statements on any rollback (a
    refused action): they are prepared again after as many runs.

    Elsewhere (SQLite, or server_side_binding already on) Django's cursor. Used like
    `connection.cursor()`: queries are logged and execute wrappers apply; parameters
    must have types PostgreSQL can infer from the statement."""
    db = db or connection
    if db.vendor != "postgresql" or db.settings_dict["OPTIONS"].get("server_side_binding"):
        return db.cursor()
    cursor_class, tz_oid, text_format, register_tzloader = _postgres_parts()
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = cursor_class(db.connection)
    # As Django's create_cursor does: timestamps in the connection's time zone.
    loader = db.connection.adapters.get_loader(tz_oid, text_format)
    if db.timezone != loader.timezone:
        register_tzloader(db.timezone, raw)
    return db._prepare_cursor(raw)


@functools.cache
def _postgres_parts() -> tuple:
    """What prepared_cursor needs from the PostgreSQL backend, made and imported once
    (the backend imports psycopg, which a SQLite set-up need not have): its cursor
    class, the timestamp type's oid, the text format and the time-zone loader."""
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    class PreparingCursor(ServerBindingCursor):
        def _send_query_prepared(self, name, pgq, **kwargs):
            # psycopg records the query it ran only when it did not prepare it, and
            # Django's query log (DEBUG, tests' CaptureQueriesContext) reads it there.
            self._query = pgq
            return super()._send_query_prepared(name, pgq, **kwargs)

    return PreparingCursor, TIMESTAMPTZ_OID, Format.TEXT, register_tzloader


def columns(model, alias: str) -> str:
    """`model`'s columns under table alias `alias`, in field order (see `instances`)."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


_layouts: dict[tuple, tuple] = {}


def _layout(db, model) -> tuple:
    """(field count, attnames, index of the primary key, [(index, column, converters)]
    for the fields that have converters), as SQLCompiler.apply_converters uses them;
    built once per database vendor and model."""
    key = (db.vendor, model)
    found = _layouts.get(key)
    if found is None:
        fields = model._meta.concrete_fields
        converting = []
        for i, field in enumerate(fields):
            col = field.get_col(model._meta.db_table)
            converters = [*db.ops.get_db_converters(col), *col.get_db_converters(db)]
            if converters:
                converting.append((i, col, converters))
        found = _layouts[key] = (
            len(fields),
            [f.attname for f in fields],
            fields.index(model._meta.pk),
            converting,
        )
    return found


def instances(row, *models, using: str = "default") -> list:
    """One instance per model from a row of their `columns`, side by side, converted
    as the ORM converts them (JSON, dates on SQLite…); None for a model whose primary
    key is NULL (an outer join that found nothing).

    Built as Model.from_db builds a fully loaded row (every field's attname set, a
    ModelState neither adding nor unbound), without Model.__init__'s walk over the
    fields, a quarter of the time (5 models an action: py-spy showed __init__ at 2 %
    of a web process). With a pre_init or post_init receiver connected anywhere,
    from_db itself, so that the receivers run."""
    db = connections[using]
    plain = not (signals.pre_init.receivers or signals.post_init.receivers)
    out, start = [], 0
    for model in models:
        count, attnames, pk_index, converting = _layout(db, model)
        values = list(row[start : start + count])
        start += count
        if values[pk_index] is None:
            out.append(None)
            continue
        for i, col, converters in converting:
            for convert in converters:
                values[i] = convert(values[i], col, db)
        if plain:
            obj = model.__new__(model)
            obj.__dict__.update(zip(attnames, values, strict=True))
            state = obj._state = ModelState()
            state.adding, state.db = False, using
        else:
            obj = model.from_db(using, attnames, values)
        out.append(obj)
    return out


class Writes:
    """Writes of one transaction sent together when it ends (`send`).

    On PostgreSQL they go as one prepared statement (one round trip); SQLite's
    driver takes one statement at a time. An action wrote its log entry, claim, game
    and table in four round trips, each also paying for the ORM building its statement.
    Values are prepared as the ORM prepares them for saving (JSON, dates, keys by id).
    """

    def __init__(self, using: str = "default"):
        self.db = connections[using]
        self.statements: list[tuple[str, list]] = []

    def _prepared(self, model, values: dict) -> tuple[list[str], list]:
        quote = self.db.ops.quote_name
        cols, params = [], []
        for name, value in values.items():
            field = model._meta.get_field(name)
            cols.append(quote(field.column))
            params.append(field.get_db_prep_save(value, self.db))
        return cols, params

    def insert(self, model, **values) -> None:
        """INSERT a row of `model`: fields not given get what the ORM would give them
        (auto_now_add: now, else the field's default)."""
        now = None
        for field in model._meta.concrete_fields:
            if field.primary_key or field.name in values or field.attname in values:
                continue
            if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
                now = now or timezone.now()
                values[field.attname] = now
            else:
                values[field.attname] = field.get_default()
        cols, params = self._prepared(model, values)
        self.statements.append(
            (
                f"INSERT INTO {self.db.ops.quote_name(model._meta.db_table)} ({', '.join(cols)}) "
                f"VALUES ({', '.join(['%s'] * len(cols))})",
                params,
            )
        )

    def update(self, model, where: dict, **values) -> None:
        """UPDATE `model` SET `values` WHERE every `where` column equals its value
        (None: IS NULL)."""
        cols, params = self._prepared(model, values)
        conds = []
        for name, value in where.items():
            column = self.db.ops.quote_name(model._meta.get_field(name).column)
            if value is None:
                conds.append(f"{column} IS NULL")
            else:
                conds.append(f"{column} = %s")
                params.append(value)
        self.statements.append(
            (
                f"UPDATE {self.db.ops.quote_name(model._meta.db_table)} "
                f"SET {', '.join(f'{c} = %s' for c in cols)} WHERE {' AND '.join(conds)}",
                params,
            )
        )

    def send(self) -> None:
        statements, self.statements = self.statements, []
        if not statements:
            return
        if self.db.vendor == "postgresql" and len(statements) > 1:
            # One statement: all but the last write as data-modifying WITH clauses.
            # Bound on the server (prepared_cursor), it is prepared after a few runs
            # and PostgreSQL stops parsing and planning it; sent as `;`-joined simple
            # queries, every action's writes were planned anew (pg_stat_statements
            # at 200 players: planning the game's UPDATE took longer than running it).
            # The clauses run on one snapshot and do not see each other's rows, so
            # the writes of one Writes must touch different rows (an action's do).
            *first, (last_sql, last_params) = statements
            sql = "WITH " + ", ".join(f"w{i} AS ({s})" for i, (s, _) in enumerate(first))
            params = [p for _, ps in first for p in ps]
            statements = [(f"{sql} {last_sql}", params + last_params)]
        with prepared_cursor(self.db) as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
