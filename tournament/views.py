from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, JsonResponse
from django.shortcuts import render

from tournament import selectors


def healthz(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True})


@login_required
def home(request):
    return render(
        request, "facilitator/home.html", {"workshops": selectors.workshops_for(request.user)}
    )


@login_required
def workshop_detail(request, workshop_id: int):
    overview = selectors.workshop_overview(workshop_id, user=request.user)
    if overview is None:
        raise Http404("No such workshop")
    return render(request, "facilitator/workshop.html", {"o": overview})
