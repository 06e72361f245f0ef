"""The engine is a library: no Django, no I/O, no clock, no global random."""

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
CLI = {"__main__.py", "cli.py"}  # the command line may read files, print and time the bench

FORBIDDEN_IMPORTS = {
    "django",
    "time",
    "datetime",
    "os",
    "sys",
    "io",
    "pathlib",
    "socket",
    "secrets",
}
GLOBAL_RANDOM = {
    "random",
    "choice",
    "choices",
    "shuffle",
    "randint",
    "randrange",
    "sample",
    "seed",
    "uniform",
}


def _engine_modules():
    return [p for p in sorted(GAMES.glob("*.py")) if p.name not in CLI]


def test_engine_modules_import_nothing_impure():
    for path in _engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                names = []
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN_IMPORTS, f"{path.name} imports {name}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "print", "input"}, (
                    f"{path.name} calls {node.func.id}"
                )
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr not in GLOBAL_RANDOM, f"{path.name} uses random.{node.attr}"


def test_games_work_with_django_unimportable():
    code = """
import sys
sys.modules["django"] = None  # any "import django" now raises ImportError
import games, games.cards, games.tricks, games.five_tricks, games.presets, games.sheets
import games.bots, games.replay, games.__main__
from games import five_tricks as ft
from games.bots import play_game
from games.presets import PRESETS
cfg = ft.Config(PRESETS["guide-1"], (PRESETS["guide-2"], PRESETS["appendix-5"], PRESETS["guide-9"]))
state, log = play_game(cfg, 7)
assert ft.is_over(state), state
assert not [m for m in sys.modules if m == "django" or m.startswith("django.")
            if sys.modules[m] is not None]
print(ft.result(state)["tricks_won"])
"""
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("[")
