"""check_export given the report's ZIP (or its files in a directory): every CSV table
against the JSON document beside it (docs/export.md, "Checking an export")."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from report_helpers import bots_played
from test_kind_all_fives import act, lead_for_revoke, revoke_setup
from test_report_refusals import STUDENTS, refusable_turn, refuse
from tournament_helpers import game_at, make_workshop, state_of, tables_of, to_scored_round

from games import all_fives
from tournament import check_export, export
from tournament.models import Player, Workshop

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "export.md"


@pytest.fixture
def served(fac, owner):
    """The ZIP the report page serves for a workshop of bots played to the debrief."""
    w = bots_played(owner, sheets={1: "guide-1", 2: "guide-2"}, seed=3)
    r = fac.get(f"/workshops/{w.pk}/report.zip")
    assert r.status_code == 200
    return r.content


def run(path) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    status = check_export.run(str(path), out=out, err=err)
    return status, out.getvalue().splitlines(), err.getvalue()


def member(zip_bytes: bytes, kind: str) -> str:
    names = zipfile.ZipFile(io.BytesIO(zip_bytes)).namelist()
    return next(n for n in names if n.endswith(f"-{kind}.csv"))


def edited(zip_bytes: bytes, kind: str, edit) -> bytes:
    """The ZIP with one CSV table's rows (header first) passed through `edit`."""
    src = zipfile.ZipFile(io.BytesIO(zip_bytes))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            if name.endswith(f"-{kind}.csv"):
                rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
                edit(rows)
                data = ("\ufeff" + export.csv_text(rows[0], rows[1:])).encode()
            dst.writestr(name, data)
    return buf.getvalue()


def without(zip_bytes: bytes, ending: str) -> bytes:
    """The ZIP without its file whose name ends with `ending`."""
    src = zipfile.ZipFile(io.BytesIO(zip_bytes))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as dst:
        for name in src.namelist():
            if not name.endswith(ending):
                dst.writestr(name, src.read(name))
    return buf.getvalue()


def test_the_served_zip_and_its_files_in_a_directory_pass(served, tmp_path):
    path = tmp_path / "export.zip"
    path.write_bytes(served)
    status, lines, err = run(path)
    assert (status, err) == (0, "")
    games = [line for line in lines if line.startswith("game ")]
    assert games and all(": OK" in line for line in games)
    assert f"{len(games)} games: {len(games)} OK, 0 MISMATCH" in lines
    tables = [line for line in lines if ".csv: " in line]
    assert len(tables) == len(export.CSV_KINDS)
    assert all(re.search(r"\.csv: OK, \d+ rows?$", line) for line in tables), tables
    # Every table of this workshop but refusals and revokes (Barnga mode) has rows.
    assert f"{member(served, 'moves')}: OK, 0 rows" not in lines
    assert (
        lines[-1] == f"{len(export.CSV_KINDS)} CSV tables: {len(export.CSV_KINDS)} OK, 0 MISMATCH"
    )
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(path).extractall(unpacked)
    assert run(unpacked) == (0, lines, "")


def test_the_json_alone_is_checked_as_before(served, tmp_path):
    """The JSON inside the ZIP, on its own: the games' lines and their summary, no table."""
    src = zipfile.ZipFile(io.BytesIO(served))
    doc = next(n for n in src.namelist() if n.endswith(".json"))
    path = tmp_path / "report.json"
    path.write_bytes(src.read(doc))
    status, lines, _ = run(path)
    assert status == 0 and lines[-1].endswith(" OK, 0 MISMATCH") and " games: " in lines[-1]
    assert not any(".csv" in line for line in lines)


def drop_second_row(rows):
    del rows[2]  # the header is rows[0]: the table's second row, row 3 in a spreadsheet


def rename_actor(rows):
    rows[0][rows[0].index("actor")] = "actor_name"


def change_first_winners(rows):
    at = rows[0].index("winners")
    row = next(r for r in rows[1:] if r[at])
    row[at] = "Nobody"


def change_a_name(rows):
    rows[2][rows[0].index("player")] = "Someone Else"


def cell_of_first_row(column: str, value: str):
    def edit(rows):
        rows[1][rows[0].index(column)] = value

    return edit


@pytest.mark.parametrize(
    ("kind", "edit", "said"),
    [
        # The report's round numbers and which games it counts, beside the stored ones.
        (
            "seatings",
            cell_of_first_row("scored_round", "9"),
            r"row 2: scored_round is '9', the JSON's is ''",
        ),
        (
            "actions",
            cell_of_first_row("scored_round", "9"),
            r"row 2: scored_round is '9', the JSON's is '\d*'",
        ),
        (
            "moves",
            cell_of_first_row("after_scored_round", "9"),
            r"row 2: after_scored_round is '9', the JSON's is '1'",
        ),
        (
            "games",
            cell_of_first_row("in_report", "true"),
            r"row 2: in_report is 'true', the JSON's is 'false'",
        ),
        ("moves", drop_second_row, r"\d+ rows, the JSON has \d+ applied moves; row 3: "),
        ("actions", rename_actor, r"row 1 \(the header\): lacks actor; has actor_name"),
        ("games", change_first_winners, r"row \d+: winners is 'Nobody', the replay's is '"),
        ("players", change_a_name, r"row 3: player is 'Someone Else', the JSON's is '"),
        ("seatings", drop_second_row, r"row 3: "),
        ("claims", drop_second_row, r"row 3: "),
    ],
)
def test_a_zip_with_a_table_changed_fails_naming_the_file_and_row(
    served, tmp_path, kind, edit, said
):
    path = tmp_path / "export.zip"
    path.write_bytes(edited(served, kind, edit))
    status, lines, err = run(path)
    assert (status, err) == (check_export.EXIT_MISMATCH, "")
    bad = [line for line in lines if "MISMATCH —" in line]
    assert len(bad) == 1, lines
    assert bad[0].startswith(f"{member(served, kind)}: MISMATCH — ")
    assert re.search(said, bad[0]), bad[0]
    assert lines[-1].endswith(" OK, 1 MISMATCH") and "CSV tables" in lines[-1]
    # The games themselves still check.
    assert any(re.fullmatch(r"(\d+) games: \1 OK, 0 MISMATCH", line) for line in lines)


def cut_columns(*names):
    """Each row without the columns `names` (the header's too)."""

    def edit(rows):
        at = sorted((rows[0].index(n) for n in names), reverse=True)
        for row in rows:
            for i in at:
                del row[i]

    return edit


def test_a_table_exported_before_columns_were_added_at_its_end_checks_in_those_it_has(
    served, tmp_path
):
    """A ZIP from before this version's additions (games.csv without scored_round and
    in_report): every old table read "MISMATCH — lacks scored_round", exit 1, though
    a table only grows at its end (docs/export.md)."""
    old = edited(served, "games", cut_columns("scored_round", "in_report"))
    path = tmp_path / "old.zip"
    path.write_bytes(old)
    status, lines, err = run(path)
    assert (status, err) == (0, ""), lines
    games = member(served, "games")
    assert any(
        re.fullmatch(
            rf"{games}: OK, \d+ rows \(exported before scored_round, in_report were added\)", x
        )
        for x in lines
    ), lines
    # Its cells are still checked ...
    path.write_bytes(edited(old, "games", change_first_winners))
    status, lines, _ = run(path)
    assert status == check_export.EXIT_MISMATCH
    assert any(
        x.startswith(f"{games}: MISMATCH — row ") and "winners is 'Nobody'" in x for x in lines
    )
    # ... and a column missing from the middle is no older export, nor a header cut
    # before the columns ever added (it read "OK, exported before round_label, …").
    path.write_bytes(edited(served, "games", cut_columns("tricks")))
    status, lines, _ = run(path)
    assert status == check_export.EXIT_MISMATCH
    assert any(x.startswith(f"{games}: MISMATCH — row 1 (the header): lacks tricks") for x in lines)
    first_only = cut_columns(*export.CSV_COLUMNS["games"][1:])
    path.write_bytes(edited(served, "games", first_only))
    status, lines, _ = run(path)
    assert status == check_export.EXIT_MISMATCH
    assert any(
        x.startswith(f"{games}: MISMATCH — row 1 (the header): lacks round_label") for x in lines
    )


def test_the_columns_added_since_are_each_tables_last():
    for kind, columns in export.CSV_COLUMNS.items():
        added = export.CSV_ADDED[kind]
        assert columns[-len(added) :] == added, kind


def test_a_zip_without_a_table_fails_and_one_without_its_json_cannot_be_checked(served, tmp_path):
    path = tmp_path / "export.zip"
    path.write_bytes(without(served, "-players.csv"))
    status, lines, _ = run(path)
    assert status == check_export.EXIT_MISMATCH
    assert "players.csv: MISMATCH — not there: no file named players.csv or …-players.csv" in lines
    path.write_bytes(without(served, "-workshop.json"))
    status, lines, err = run(path)
    assert (status, lines) == (check_export.EXIT_BAD_INPUT, [])
    assert err == "The ZIP holds no JSON document (the export's workshop.json).\n"
    path.write_bytes(served[: len(served) // 2])  # cut short: no ZIP any more, nor JSON
    status, lines, err = run(path)
    assert status == check_export.EXIT_BAD_INPUT and err


def test_the_command_checks_a_zip_too(served, tmp_path):
    path = tmp_path / "export.zip"
    path.write_bytes(edited(served, "moves", drop_second_row))
    out = io.StringIO()
    with pytest.raises(SystemExit) as ended:
        call_command("check_export", str(path), stdout=out, stderr=io.StringIO())
    assert ended.value.code == check_export.EXIT_MISMATCH
    assert f"{member(served, 'moves')}: MISMATCH — " in out.getvalue()


def test_a_refusal_missing_from_refusals_csv_is_noticed(fac, owner, tmp_path):
    w = make_workshop(players=4, tables=1, mode="referee", names=STUDENTS[:4])
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    to_scored_round(w)
    table = tables_of(w)[0]
    game, seat, card = refusable_turn(table, set(game_at(table).players))
    refuse(game, seat, card, times=2)
    served = fac.get(f"/workshops/{w.pk}/report.zip").content
    path = tmp_path / "export.zip"
    path.write_bytes(served)
    status, lines, _ = run(path)
    assert status == 0 and f"{member(served, 'refusals')}: OK, 2 rows" in lines

    def last_row_gone(rows):
        del rows[-1]

    path.write_bytes(edited(served, "refusals", last_row_gone))
    status, lines, _ = run(path)
    assert status == check_export.EXIT_MISMATCH
    assert f"{member(served, 'refusals')}: MISMATCH — 1 row, the JSON has 2 refusals" in lines


def test_revokes_csv_is_checked_against_the_logs_replayed(fac, owner, tmp_path):
    """All Fives in Barnga mode, a game still in play: a revoke and the call on it (its
    player named like a formula, which the table writes behind a ')."""
    game, r_seat = revoke_setup("barnga")
    w = Workshop.objects.get(pk=game.table.workshop_id)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    Player.objects.filter(pk=game.players[r_seat]).update(name="=1+1")
    leader, last = state_of(game).eldest, (r_seat + 1) % 3
    _, off = lead_for_revoke(game, r_seat)
    act(game, r_seat, {"type": "play", "card": off})
    card = all_fives.legal_actions(state_of(game), last)[0]["card"]
    act(game, last, {"type": "play", "card": card})
    act(game, leader, {"type": "call_revoke", "accused": r_seat})
    served = fac.get(f"/workshops/{w.pk}/report.zip").content
    path = tmp_path / "export.zip"
    path.write_bytes(served)
    status, lines, _ = run(path)
    assert status == 0 and f"{member(served, 'revokes')}: OK, 2 rows" in lines, lines

    def the_call_gone(rows):
        del rows[2]

    path.write_bytes(edited(served, "revokes", the_call_gone))
    status, lines, _ = run(path)
    assert status == check_export.EXIT_MISMATCH
    assert (
        f"{member(served, 'revokes')}: MISMATCH — 1 row, the JSON has 2 revokes and calls "
        "(the logs replayed)" in lines
    )


def test_docs_list_every_column_the_export_writes():
    """docs/export.md's table of CSV files names each table's columns in the export's
    order (export.CSV_COLUMNS, what the tables are written with and checked against)."""
    text = DOCS.read_text(encoding="utf-8")
    for kind in export.CSV_KINDS:
        line = next(x for x in text.splitlines() if x.startswith(f"| `{kind}` |"))
        said = [
            word.strip()
            for quoted in re.findall(r"`([^`]+)`", line.split("|")[3])
            for word in quoted.split(",")
        ]
        columns = list(export.CSV_COLUMNS[kind])
        if columns[:5] == list(export.GAME_COLUMNS):
            columns = columns[5:]  # "Every game row starts with round, ..., game_number"
        words = iter(said)
        assert all(c in words for c in columns), (kind, columns, said)
