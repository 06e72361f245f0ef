"""The public command line ``python -m tournament.movement FILE|-``.

Other tools depend on this contract: JSON in, one JSON object out, exit 0; bad
input exits 2 with one line on stderr and nothing on stdout. Run as a real
subprocess, with Django settings absent or bogus, as those tools would run it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.movement import main

REPO = Path(__file__).resolve().parents[2]

# Tables out of order, a five-player table (k = 2), accents, case, and two
# names that only differ by an accent ("Zoë", "zoe": join order decides).
EXAMPLE = {
    "tables": [
        {
            "number": 2,
            "players": [
                {"name": "Dee", "games_won": 3},
                {"name": "Émile", "games_won": 1},
                {"name": "eve", "games_won": 1},
                {"name": "Fay", "games_won": 0},
                {"name": "Gus", "games_won": 4},
            ],
        },
        {
            "number": 1,
            "players": [
                {"name": "Ana", "games_won": 2},
                {"name": "Bob", "games_won": 0},
                {"name": "Cy", "games_won": 1},
            ],
        },
        {
            "number": 3,
            "players": [{"name": "Zoë", "games_won": 1}, {"name": "zoe", "games_won": 1}],
        },
    ]
}

# Table 1 ranks Ana, Cy, Bob: Ana up, Bob is at the bottom table and stays.
# Table 2 ranks Gus, Dee, Émile, eve, Fay: two up, two down, Émile stays.
# Table 3 ranks Zoë, zoe: Zoë is at the top table and stays, zoe goes down.
EXPECTED = {
    "tables": [
        {"number": 1, "players": ["Cy", "Bob", "eve", "Fay"]},
        {"number": 2, "players": ["Émile", "Ana", "zoe"]},
        {"number": 3, "players": ["Zoë", "Gus", "Dee"]},
    ],
    "moves": [
        {"name": "Ana", "from": 1, "to": 2},
        {"name": "Gus", "from": 2, "to": 3},
        {"name": "Dee", "from": 2, "to": 3},
        {"name": "eve", "from": 2, "to": 1},
        {"name": "Fay", "from": 2, "to": 1},
        {"name": "zoe", "from": 3, "to": 2},
    ],
}


def run(*args: str, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    environment["PYTHONPATH"] = str(REPO)
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "tournament.movement", *args],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=REPO,
        env=environment,
        timeout=60,
    )


def as_sets(document: dict) -> tuple:
    """The output with list order ignored, as the contract allows."""
    tables = {t["number"]: sorted(t["players"]) for t in document["tables"]}
    moves = sorted((m["name"], m["from"], m["to"]) for m in document["moves"])
    return tables, moves


def assert_ok(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    out = result.stdout.decode("utf-8")
    assert out.endswith("\n") and out.count("\n") == 1, "one JSON object on one line"
    return json.loads(out)


def assert_bad(result: subprocess.CompletedProcess, *fragments: str) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == b""
    err = result.stderr.decode("utf-8")
    assert err.endswith("\n") and err.count("\n") == 1, f"one line expected: {err!r}"
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err
    return err


# ------------------------------------------------------------------------ success


def test_worked_example_from_file(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(EXAMPLE, ensure_ascii=False), encoding="utf-8")
    output = assert_ok(run(str(path)))
    assert output == EXPECTED  # exact, including this implementation's order
    assert as_sets(output) == as_sets(EXPECTED)


def test_worked_example_from_stdin():
    output = assert_ok(run("-", stdin=json.dumps(EXAMPLE).encode("utf-8")))
    assert output == EXPECTED


def test_exact_stdout_text(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(
        '{"tables": [{"number": 1, "players": [{"name": "Ana", "games_won": 2},'
        ' {"name": "Bob", "games_won": 0}]}, {"number": 2, "players": []}]}',
        encoding="utf-8",
    )
    result = run(str(path))
    assert result.returncode == 0
    assert result.stdout == (
        b'{"tables": [{"number": 1, "players": ["Bob"]}, {"number": 2, "players": ["Ana"]}],'
        b' "moves": [{"name": "Ana", "from": 1, "to": 2}]}\n'
    )


def test_the_docs_example_gives_the_output_the_docs_show():
    """docs/movement.md's input, as written there, gives the output printed under it."""
    blocks = (REPO / "docs" / "movement.md").read_text(encoding="utf-8").split("```json\n")[1:3]
    given, shown = (b.split("```", 1)[0] for b in blocks)
    assert assert_ok(run("-", stdin=given.encode("utf-8"))) == json.loads(shown)


def test_output_order_does_not_depend_on_input_table_order():
    forward = assert_ok(run("-", stdin=json.dumps(EXAMPLE).encode()))
    backward = {"tables": list(reversed(EXAMPLE["tables"]))}
    assert assert_ok(run("-", stdin=json.dumps(backward).encode())) == forward


def test_identical_names_are_allowed():
    document = {
        "tables": [
            {
                "number": 1,
                "players": [{"name": "Ana", "games_won": 1}, {"name": "Ana", "games_won": 1}],
            },
            {"number": 2, "players": [{"name": "Ana", "games_won": 0}]},
        ]
    }
    output = assert_ok(run("-", stdin=json.dumps(document).encode()))
    assert output == {
        "tables": [{"number": 1, "players": ["Ana"]}, {"number": 2, "players": ["Ana", "Ana"]}],
        "moves": [{"name": "Ana", "from": 1, "to": 2}],
    }


def test_empty_tables_and_no_tables():
    assert assert_ok(run("-", stdin=b'{"tables": []}')) == {"tables": [], "moves": []}
    output = assert_ok(run("-", stdin=b'{"tables": [{"number": 4, "players": []}]}'))
    assert output == {"tables": [{"number": 4, "players": []}], "moves": []}


def test_unknown_members_are_ignored_and_bom_accepted():
    document = {
        "round": 3,
        "tables": [
            {"number": 1, "sheet": "x", "players": [{"name": "Ana", "games_won": 0, "id": 9}]}
        ],
    }
    raw = b"\xef\xbb\xbf" + json.dumps(document).encode()
    assert assert_ok(run("-", stdin=raw)) == {
        "tables": [{"number": 1, "players": ["Ana"]}],
        "moves": [],
    }


def test_runs_without_django_settings_and_without_importing_django():
    # A bogus settings module would blow up any import of Django settings.
    result = run("-", stdin=json.dumps(EXAMPLE).encode(), DJANGO_SETTINGS_MODULE="no.such.settings")
    assert assert_ok(result) == EXPECTED
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, tournament.movement; "
            "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))",
        ],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        timeout=60,
    )
    assert probe.returncode == 0, probe.stderr


def test_help():
    result = run("--help")
    assert result.returncode == 0
    assert b"usage" in result.stdout


# ---------------------------------------------------------------------- bad input


def test_missing_file():
    assert_bad(run("/no/such/dir/round.json"), "cannot read", "/no/such/dir/round.json")


def test_directory_instead_of_file(tmp_path):
    assert_bad(run(str(tmp_path)), "cannot read")


def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.json"
    path.write_text(json.dumps(EXAMPLE))
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user who can read anything (root)")
        assert_bad(run(str(path)), "cannot read")
    finally:
        path.chmod(0o600)


@pytest.mark.parametrize("args", [(), ("a.json", "b.json")])
def test_wrong_number_of_arguments(args):
    assert_bad(run(*args), "usage")


def player(name="Ana", games_won=1):
    return {"name": name, "games_won": games_won}


def one_table(*players, number=1):
    return {"tables": [{"number": number, "players": list(players)}]}


BAD_DOCUMENTS = {
    "top level not an object": ([EXAMPLE], "JSON object"),
    "missing tables": ({"table": []}, '"tables"'),
    "tables not an array": ({"tables": {"1": []}}, '"tables" must be an array'),
    "table not an object": ({"tables": [[1, []]]}, "tables[0] must be an object"),
    "missing number": ({"tables": [{"players": []}]}, 'missing "number"'),
    "number is a string": ({"tables": [{"number": "1", "players": []}]}, "tables[0].number"),
    "number is a float": ({"tables": [{"number": 1.5, "players": []}]}, "tables[0].number"),
    "number is a bool": ({"tables": [{"number": True, "players": []}]}, "tables[0].number"),
    "number is null": ({"tables": [{"number": None, "players": []}]}, "tables[0].number"),
    "missing players": ({"tables": [{"number": 1}]}, 'missing "players"'),
    "players not an array": (
        {"tables": [{"number": 1, "players": "Ana"}]},
        "players must be an array",
    ),
    "player not an object": (one_table("Ana"), "tables[0].players[0] must be an object"),
    "missing name": (one_table({"games_won": 1}), 'missing "name"'),
    "name not a string": (one_table(player(name=7)), "name must be a string"),
    "name null": (one_table(player(name=None)), "name must be a string"),
    "empty name": (one_table(player(name="")), "must not be empty"),
    "blank name": (one_table(player(name="  \t")), "must not be empty"),
    "missing games_won": (one_table({"name": "Ana"}), 'missing "games_won"'),
    "games_won string": (
        one_table(player(games_won="2")),
        "games_won must be a non-negative integer",
    ),
    "games_won float": (
        one_table(player(games_won=2.0)),
        "games_won must be a non-negative integer",
    ),
    "games_won true": (
        one_table(player(games_won=True)),
        "games_won must be a non-negative integer",
    ),
    "games_won false": (
        one_table(player(games_won=False)),
        "games_won must be a non-negative integer",
    ),
    "games_won null": (
        one_table(player(games_won=None)),
        "games_won must be a non-negative integer",
    ),
    "games_won negative": (
        one_table(player(games_won=-1)),
        "games_won must be a non-negative integer",
    ),
    "duplicate table numbers": (
        {"tables": [{"number": 3, "players": []}, {"number": 3, "players": [player()]}]},
        "duplicate table number 3",
    ),
}


@pytest.mark.parametrize("document, fragment", BAD_DOCUMENTS.values(), ids=BAD_DOCUMENTS.keys())
def test_bad_document_from_stdin(document, fragment):
    assert_bad(run("-", stdin=json.dumps(document).encode()), fragment)


def test_bad_document_from_file(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(one_table(player(games_won=-3))))
    assert_bad(run(str(path)), "tables[0].players[0].games_won")


@pytest.mark.parametrize(
    "raw, fragment",
    [
        (b"", "invalid JSON"),
        (b"{", "invalid JSON"),
        (b'{"tables": [}', "invalid JSON"),
        (b"tables: []", "invalid JSON"),
        (b'{"tables": []} trailing', "invalid JSON"),
        (b'{"tables": [{"number": 1, "players": [{"name": "A", "games_won": NaN}]}]}', "games_won"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b'{"tables": [], "tables": []}', 'duplicate member "tables"'),
        (b'{"tables": [{"number": 1, "number": 2, "players": []}]}', 'duplicate member "number"'),
        (b"[" * 100000 + b"]" * 100000, "JSON"),
        (b'{"tables": ' + b"1" * 5000 + b"}", "more than 4,300 digits"),
    ],
    ids=[
        "empty",
        "truncated",
        "broken",
        "not json",
        "trailing",
        "NaN",
        "binary",
        "dup tables",
        "dup number",
        "deep",
        "long number",
    ],
)
def test_bad_bytes(raw, fragment):
    assert_bad(run("-", stdin=raw), fragment)


def test_message_stays_on_one_line_for_names_with_newlines():
    document = one_table(player(name="Ana\nBob"), player(name="x\ny", games_won=-1))
    err = assert_bad(run("-", stdin=json.dumps(document).encode()), "games_won")
    assert "\r" not in err


# --------------------------------------------------------------- in process


def test_main_in_process(tmp_path, capsys):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert main([str(path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == EXPECTED and err == ""

    path.write_text('{"tables": 1}')
    assert main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("movement: error: ")
