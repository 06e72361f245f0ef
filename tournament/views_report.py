"""The debrief report and its exports: only for the workshop's own facilitator.

Anyone else (another facilitator, a student with a player cookie, a visitor
who is not logged in) gets 404, so the pages do not even confirm that a
workshop exists. Every response is built from the stored rows by
`tournament.export.workshop_document`; nothing is cached (`never_cache`: the
exports hold players' names).
"""

from __future__ import annotations

import io
import json
import zipfile

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournament import export, report, report_charts
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


@require_GET
@never_cache
def report_page(request, workshop_id: int):
    workshop = _own_workshop(request, workshop_id)
    doc = export.workshop_document(workshop)
    rep = report.build_report(doc, gesture_palette=GESTURE_PALETTE)
    return render(
        request,
        "report/page.html",
        {
            "workshop": workshop,
            "r": rep,
            "charts": report_charts.all_charts(rep),
            # Only Five Tricks records tricks, claims and disputes: for the other
            # games those files hold a header and nothing else (still served).
            "csv_kinds": export.CSV_KINDS
            if rep["claims"]
            else tuple(k for k in export.CSV_KINDS if k not in ("tricks", "claims", "disputes")),
        },
    )


def _json_bytes(doc: dict) -> bytes:
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=False).encode("utf-8")


@require_GET
@never_cache
def report_json(request, workshop_id: int):
    workshop = _own_workshop(request, workshop_id)
    doc = export.workshop_document(workshop)
    response = HttpResponse(_json_bytes(doc), content_type="application/json; charset=utf-8")
    return _attachment(response, _filename(workshop, "workshop.json"))


# Excel opens UTF-8 CSV correctly only with a byte-order mark.
BOM = "\ufeff"


@require_GET
@never_cache
def report_csv(request, workshop_id: int, kind: str):
    workshop = _own_workshop(request, workshop_id)
    if kind not in export.CSV_KINDS:
        raise Http404("No such table")
    header, rows = export.csv_tables(export.workshop_document(workshop))[kind]
    response = HttpResponse(
        BOM + export.csv_text(header, rows), content_type="text/csv; charset=utf-8"
    )
    return _attachment(response, _filename(workshop, f"{kind}.csv"))


@require_GET
@never_cache
def report_zip(request, workshop_id: int):
    """Every CSV table and the JSON document in one download."""
    workshop = _own_workshop(request, workshop_id)
    doc = export.workshop_document(workshop)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(_filename(workshop, "workshop.json"), _json_bytes(doc))
        for kind, (header, rows) in export.csv_tables(doc).items():
            zf.writestr(_filename(workshop, f"{kind}.csv"), BOM + export.csv_text(header, rows))
    response = HttpResponse(buf.getvalue(), content_type="application/zip")
    return _attachment(response, _filename(workshop, "export.zip"))
