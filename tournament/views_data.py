"""Deleting a workshop with everything about its students: owner only, after confirmation.

GET shows what will go and asks for the join code; POST with the right code
deletes (services.data.workshop_delete) and returns to the list of workshops.
Another facilitator's workshop, or one that does not exist, is 404 either way.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from tournament import names
from tournament.errors import NotFound
from tournament.models import Game, Gesture, Workshop
from tournament.services.data import workshop_delete


def _summary(workshop: Workshop) -> dict:
    return {
        "players": workshop.players.filter(is_bot=False).count(),
        "games": Game.objects.filter(table__workshop=workshop).count(),
        "gestures": Gesture.objects.filter(table__workshop=workshop).count(),
    }


@login_required
@require_http_methods(["GET", "POST"])
def workshop_delete_view(request, workshop_id: int):
    workshop = Workshop.objects.filter(pk=workshop_id, facilitator=request.user).first()
    if workshop is None:
        raise Http404("No such workshop")
    error = None
    if request.method == "POST":
        if names.normalise_code(request.POST.get("confirm", "")) == workshop.code:
            name = workshop.name
            try:
                workshop_delete(workshop_id=workshop.pk, facilitator=request.user)
            except NotFound:
                raise Http404("No such workshop") from None
            messages.success(request, f"“{name}” and everything about its students were deleted.")
            response = redirect("home")
            response.status_code = 303
            return response
        error = "Type the workshop's join code to confirm. Nothing was deleted."
    return render(
        request,
        "facilitator/delete.html",
        {"workshop": workshop, "summary": _summary(workshop), "error": error},
        status=400 if error else 200,
    )
