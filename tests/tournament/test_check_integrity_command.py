"""`python manage.py check_integrity [--workshop ID] [--json]`: its arguments."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from tournament_helpers import make_workshop, to_scored_round

pytestmark = pytest.mark.django_db


def test_a_workshop_that_does_not_exist_is_said_so():
    for wid in ("999999", "0", "-3", "99999999999999999999999"):
        with pytest.raises(CommandError, match=f"There is no workshop {wid}"):
            call_command("check_integrity", "--workshop", wid, stdout=io.StringIO())


def test_one_workshops_games_are_checked():
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    out = io.StringIO()
    call_command("check_integrity", "--workshop", str(w.pk), stdout=out)
    assert out.getvalue().strip().endswith("game(s) checked, 0 problem(s).")
    assert not out.getvalue().startswith("0 game(s)")
