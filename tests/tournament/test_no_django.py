"""The report and the export checker are pure: tournament/report.py says "No Django, no
database", and docs/export.md says `python -m tournament.check_export report.json`
needs neither. Checked in a fresh interpreter with no Django settings, on an export
the app served."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from report_helpers import bots_played

from tournament import export

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

# Imports the three modules (and so whatever they import from tournament/ and games/),
# then uses them as the command line and a rebuilt report do: Django must be in none of it.
PROBE = """
import sys

def django_loaded():
    return sorted(m for m in sys.modules if m == "django" or m.startswith("django."))

import tournament.report, tournament.report_charts, tournament.check_export
assert not django_loaded(), ("importing", django_loaded())

from games import jsontext
from tournament import check_export, report, report_charts

zip_path, json_path = sys.argv[1:3]
doc = jsontext.parse(open(json_path, encoding="utf-8").read())
rep = report.build_report(doc)
charts = report_charts.all_charts(rep)
assert rep["players"] and charts, "the report came out empty"
statuses = [check_export.run(json_path), check_export.run(zip_path)]
assert not django_loaded(), ("running", django_loaded())
print("statuses", statuses)
"""


def test_report_charts_and_check_export_run_without_django(fac, owner, tmp_path):
    w = bots_played(owner, sheets={1: "guide-1", 2: "guide-2"}, seed=3)
    served = fac.get(f"/workshops/{w.pk}/report.zip").content
    zip_path = tmp_path / "export.zip"
    zip_path.write_bytes(served)
    json_path = tmp_path / "report.json"
    with zipfile.ZipFile(zip_path) as zf:
        json_path.write_bytes(zf.read(next(n for n in zf.namelist() if n.endswith(".json"))))
    assert json.loads(json_path.read_text())["games"]

    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(zip_path), str(json_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "statuses [0, 0]", proc.stdout
    assert any(
        line.endswith(f" CSV tables: {len(export.CSV_KINDS)} OK, 0 MISMATCH") for line in lines
    ), proc.stdout
