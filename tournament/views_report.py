"""The debrief report and its exports: only for the workshop's own facilitator.

Anyone else (another facilitator, a student with a player cookie, a visitor
who is not logged in) gets 404, so the pages do not even confirm that a
workshop exists. Every response is built from the stored rows by
`tournament.export.workshop_document`, once the tournament is over only once per web
process (`tournament.reportcache`); browsers keep nothing (`never_cache`: the exports
hold players' names).
"""

from __future__ import annotations

import io
import json
import zipfile

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import kinds
from tournament import export, report, report_charts, reportcache
from tournament.models import Gesture, Workshop

GESTURE_PALETTE = Gesture.PALETTE + [
    ("drawing", "✏️", "Drawing"),
    ("clear", "🧽", "Cleared the drawing"),
]


def _own_workshop(request, workshop_id: int) -> Workshop:
    user = request.user
    if not user.is_authenticated:
        raise Http404("No such workshop")
    workshop = Workshop.objects.filter(pk=workshop_id, facilitator=user).first()
    if workshop is None:
        raise Http404("No such workshop")
    return workshop


def _filename(workshop: Workshop, suffix: str) -> str:
    return f"barnga-{workshop.code.lower()}-{suffix}"


def _attachment(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _document(workshop: Workshop) -> dict:
    """The workshop's document, built at most once per request (the ZIP's JSON and
    CSVs share it). Not kept beyond it: at 200 players it is 50 MB of Python objects;
    what is kept are the texts made from it."""
    if not hasattr(workshop, "_document"):
        workshop._document = export.workshop_document(workshop)
    return workshop._document


# The report's views ({?view=: what reportcache keeps it as}): the whole one for the
# facilitator, and the class's for the projector (no student's name:
# report.for_the_class); and the debrief guide alone of each, to print (the whole
# report printed it last, after twenty pages).
VIEWS = {
    "full": "page",
    "class": "page-class",
    "guide": "page-guide",
    "class-guide": "page-class-guide",
}
# The views without a student's name.
CLASS_VIEWS = ("class", "class-guide")
# The guide alone: the page whose sections its "See the figures" links go to.
GUIDE_OF = {"guide": "", "class-guide": "?view=class"}


def _report_body(workshop: Workshop, view: str = "full") -> str:
    rep = report.build_report(
        _document(workshop), gesture_palette=GESTURE_PALETTE, names=view not in CLASS_VIEWS
    )
    if view in GUIDE_OF:
        # No charts: the guide has none.
        return render_to_string(
            "report/_guide_page.html",
            {
                "workshop": workshop,
                "r": rep,
                "class_view": view in CLASS_VIEWS,
                "whole_report": reverse("report", args=[workshop.pk]) + GUIDE_OF[view],
            },
        )
    return render_to_string(
        "report/_body.html",
        {
            "workshop": workshop,
            "r": rep,
            "class_view": view in CLASS_VIEWS,
            "charts": report_charts.all_charts(rep),
            "csv_kinds": _offered(rep),
        },
    )


# What each CSV table holds, beside its file name in the report's download list.
CSV_LABELS = {
    "actions": "every entry of the games' logs: cards, claims, time-outs",
    "tricks": "every completed trick and how each sheet judged it",
    "claims": "every claim and changed claim",
    "disputes": "every dispute, with who was claimed at its start and end",
    "gestures": "every gesture and drawing stroke",
    "moves": "who moved up or down after each round",
    "seatings": "where everyone sat as each round began",
    "games": "every game and its result",
    "refusals": "every move the table's rules refused",
    "players": "one row per player: the per-player figures",
    "revokes": "every revoke and revoke call, and whether it was called or upheld",
}


def _offered(rep: dict) -> list[tuple[str, str]]:
    """The CSV tables the report lists. One that this workshop's game never fills
    holds a header and nothing else: still served (and in the ZIP), not listed."""
    never = set()
    if not rep["claims"]:  # only Five Tricks records tricks, claims and disputes
        never |= {"tricks", "claims", "disputes"}
    if rep["refusals"] is None:  # each seat's own sheet decides: none are kept
        never.add("refusals")
    # Revokes and calls: All Fives in Barnga mode (in referee mode the table's sheet
    # refuses a card it forbids: nothing to call).
    if not kinds.get(rep["game"]).records_revokes or rep["referee"]:
        never.add("revokes")
    return [(k, CSV_LABELS[k]) for k in export.CSV_KINDS if k not in never]


@require_GET
@never_cache
def report_page(request, workshop_id: int):
    workshop = _own_workshop(request, workshop_id)
    # Any other view is the full report: an old or mistyped link shows it all, to the
    # facilitator it is for.
    view = request.GET.get("view")
    if view not in VIEWS:
        view = "full"
    # Kept as UTF-8: a str holding one emoji takes four bytes a character. Each view
    # apart: the class's must never be served the full one's text.
    body = reportcache.kept(workshop, VIEWS[view], lambda: _report_body(workshop, view).encode())
    return render(
        request,
        "report/page.html",
        {
            "workshop": workshop,
            "body": mark_safe(body.decode()),
            "class_view": view in CLASS_VIEWS,
            "guide_only": view in GUIDE_OF,
        },
    )


# Where the time of each copy goes in a kept JSON text.
_AT = "exported_at"
_AT_STAND_IN = "(the time of this copy)"
_AT_KEPT = json.dumps({_AT: _AT_STAND_IN})[1:-1].encode()


def _json_bytes(workshop: Workshop) -> bytes:
    """The JSON document, saying when this copy was made."""

    def build() -> bytes:
        doc = {**_document(workshop), _AT: _AT_STAND_IN}
        return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=False).encode("utf-8")

    now = json.dumps({_AT: export.iso(timezone.now())})[1:-1].encode()
    # The first: the document's own field comes before any name a player could choose.
    return reportcache.kept(workshop, "json", build).replace(_AT_KEPT, now, 1)


@require_GET
@never_cache
def report_json(request, workshop_id: int):
    workshop = _own_workshop(request, workshop_id)
    response = HttpResponse(_json_bytes(workshop), content_type="application/json; charset=utf-8")
    return _attachment(response, _filename(workshop, "workshop.json"))


# Excel opens UTF-8 CSV correctly only with a byte-order mark.
BOM = "\ufeff"


def _csv_texts(workshop: Workshop) -> dict[str, bytes]:
    """Every CSV table's text (csv_tables builds them all at once): kept as the document."""

    def build() -> dict[str, bytes]:
        return {
            kind: (BOM + export.csv_text(header, rows)).encode()
            for kind, (header, rows) in export.csv_tables(_document(workshop)).items()
        }

    return reportcache.kept(workshop, "csv", build)


@require_GET
@never_cache
def report_csv(request, workshop_id: int, kind: str):
    workshop = _own_workshop(request, workshop_id)
    if kind not in export.CSV_KINDS:
        raise Http404("No such table")
    response = HttpResponse(_csv_texts(workshop)[kind], content_type="text/csv; charset=utf-8")
    return _attachment(response, _filename(workshop, f"{kind}.csv"))


@require_GET
@never_cache
def report_zip(request, workshop_id: int):
    """Every CSV table and the JSON document in one download."""
    workshop = _own_workshop(request, workshop_id)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(_filename(workshop, "workshop.json"), _json_bytes(workshop))
        for kind, text in _csv_texts(workshop).items():
            zf.writestr(_filename(workshop, f"{kind}.csv"), text)
    response = HttpResponse(buf.getvalue(), content_type="application/zip")
    return _attachment(response, _filename(workshop, "export.zip"))
