"""Fuzzing every form and page with hypothesis: no 500, and a refusal changes nothing.

The routes come from the URLconf (security_world.routes), so a form added later
is fuzzed too. Each example picks a route, who asks (a visitor, a student, the
other facilitator or the owner), GET or POST, and random fields: the forms' own
names and stray ones, with text of any kind (control characters, very long,
other workshops' ids). Django's test client raises on a server error, so a 500
fails the example; a 4xx must leave every row as it was and say why.
"""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.forms import UserCreationForm
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from security_world import routes, world
from tournament_helpers import snapshot

from tournament.forms import WorkshopForm
from tournament.models import Player, Workshop

pytestmark = pytest.mark.django_db(transaction=True)
EXAMPLES = int(os.environ.get("BARNGA_FUZZ_EXAMPLES", "150"))
# Our forms say what is wrong; Django's own 400 (e.g. a query string too long to
# send back to the login page) is its plain "Bad Request" page.
ERROR_MARKERS = (
    b'role="alert"',
    b'class="error',
    b"errorlist",
    b"msg error",
    b"<h1>Bad Request (400)</h1>",
)


def field_names(w) -> list[str]:
    names = set(WorkshopForm().fields) | set(UserCreationForm().fields)
    names |= {"code", "name", "pin", "confirm", "player", "username", "password", "next"}
    for p in Player.objects.all():
        names |= {f"to_{p.pk}", f"home_{p.pk}"}
    return sorted(names)


def values(w) -> st.SearchStrategy:
    ids = [str(x) for x in Player.objects.values_list("pk", flat=True)]
    ids += [str(x) for x in Workshop.objects.values_list("pk", flat=True)]
    return st.one_of(
        st.text(max_size=40),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
        st.sampled_from(
            ids
            + [
                w.mine.code,
                w.other.code,
                w.student.pin,
                "1",
                "0",
                "-1",
                "99999999999999999999",
                "1e9",
                "NaN",
                "",
                " ",
                "\x00",
                "on",
            ]
        ),
        st.integers(-(10**12), 10**12).map(str),
        st.just("x" * 5000),
    )


def test_fuzz_every_form_and_page():
    from django.conf import settings as dj

    # Limits have their own tests; here every request reaches its view.
    dj.BARNGA_JOIN_LIMIT_PER_ADDRESS = dj.BARNGA_JOIN_LIMIT_PER_WORKSHOP = 10**6
    dj.BARNGA_JOIN_BAD_CODE_LIMIT = dj.BARNGA_REJOIN_BAD_PIN_LIMIT = 10**6
    w = world()
    targets = routes(w.mine) + routes(w.other)
    assert {name for _, name, _ in targets} >= {"join", "rejoin", "workshop-new", "workshop-action"}
    clients = {
        "visitor": Client(),
        "student": w.student_client(),
        "other": w.facilitator(w.bob),
        "owner": w.facilitator(w.alice),
    }
    fields = field_names(w)
    seen_statuses: set[int] = set()

    @settings(
        max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(
        target=st.sampled_from(targets),
        who=st.sampled_from(sorted(clients)),
        method=st.sampled_from(["post"] * 7 + ["get"]),  # forms are POSTs
        data=st.dictionaries(
            st.sampled_from(fields) | st.text(max_size=12),
            values(w) | st.lists(values(w), max_size=3),
            max_size=8,
        ),
        htmx=st.booleans(),
    )
    def one_request(target, who, method, data, htmx):
        url, name, _ = target
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        before = snapshot()
        response = getattr(clients[who], method)(url, data, **headers)
        status = response.status_code
        seen_statuses.add(status)
        assert status < 500, (who, method, url, data)
        if status >= 400:
            assert snapshot() == before, f"refused {method.upper()} {url} changed rows"
            if status == 400:
                assert any(m in response.content for m in ERROR_MARKERS), (url, data)

    one_request()
    assert {200, 302, 400, 404} <= seen_statuses, seen_statuses
