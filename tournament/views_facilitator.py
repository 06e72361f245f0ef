"""The facilitator's pages: sign-up, workshops, the set-up wizard, the control panel,
one table's full view and the projector.

Every control is a POST to `workshop_action`. With htmx it answers with the
panel partial (refusals with a 4xx status the page is configured to swap), or,
when the page says its socket is live (X-Barnga-Live), with the message alone and
the socket brings the changed regions; without
JavaScript it redirects back to the panel on success and re-renders the page with
the refusal otherwise. A workshop that is not the user's is a 404, whatever the
action.
"""

from __future__ import annotations

from collections import Counter

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from tournament import regions, services, timing
from tournament import selectors_facilitator as sf
from tournament.errors import InvalidInput, ServiceError, WrongPhase
from tournament.forms import WorkshopForm, initial_like
from tournament.models import Phase, Player, Round, RoundKind, RoundState
from tournament.names import said_as_list
from tournament.services.common import current_round, seated_tables
from tournament.templatetags.facilitator import clock

STATUS = {"wrong_phase": 409, "joining_closed": 409, "not_found": 404, "not_allowed": 403}


def _own_or_404(request, workshop_id: int):
    workshop = sf.own_workshop(workshop_id, request.user)
    if workshop is None:
        raise Http404("No such workshop")
    return workshop


# ---------------------------------------------------------------- accounts and lists


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = UserCreationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.username}. Set up your first workshop.")
        return redirect("workshop-new")
    return render(
        request, "facilitator/signup.html", {"form": form}, status=400 if form.errors else 200
    )


@never_cache
@login_required
def home(request):
    return render(request, "facilitator/home.html", {"workshops": sf.workshops_of(request.user)})


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def workshop_new(request):
    like = None
    if request.method == "GET" and "like" in request.GET:
        # "Set up again": the wizard filled in as one of the facilitator's workshops was.
        like_id = request.GET["like"]
        if not (like_id.isascii() and like_id.isdigit()):
            raise Http404("No such workshop")
        like = _own_or_404(request, int(like_id))
    form = WorkshopForm(
        request.POST if request.method == "POST" else None,
        initial=initial_like(like) if like else None,
    )
    if request.method == "POST" and form.is_valid():
        try:
            workshop, warnings = services.workshop_setup(
                facilitator=request.user, **form.service_kwargs()
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request, f"“{workshop.name}” is ready: the join code is {workshop.code}."
            )
            for warning in warnings:
                messages.warning(request, warning)
            return redirect("workshop", workshop.pk)
    return render(
        request,
        "facilitator/setup.html",
        {"form": form, "like": like},
        status=400 if form.errors else 200,
    )


# ---------------------------------------------------------------- pages


def _panel_context(request, workshop, *, message=None, ok=True) -> dict:
    """The panel's context and its regions drawn once: the page puts them in and tells
    its socket their digests, so the first push carries only what changed since."""
    ctx = sf.panel(workshop)
    ctx.update(message=message, ok=ok)
    parts = regions.draw("panel", ctx, request)
    ctx["parts"] = {rid.removeprefix("fac-"): mark_safe(html) for rid, html in parts.items()}
    ctx["have"] = regions.have(parts)
    return ctx


def _panel_page(request, workshop, *, message=None, ok=True, status=200):
    ctx = _panel_context(request, workshop, message=message, ok=ok)
    return render(request, "facilitator/panel.html", ctx, status=status)


@never_cache  # every sheet and name (a table's page: every hand): not for the browser's cache
@login_required
def workshop_detail(request, workshop_id: int):
    return _panel_page(request, _own_or_404(request, workshop_id))


@login_required
def projector(request, workshop_id: int):
    workshop = _own_or_404(request, workshop_id)
    join_url = request.build_absolute_uri(reverse("short-join", args=[workshop.code]))
    qr = segno.make(join_url, error="m").svg_inline(
        scale=10,
        border=2,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr",
        title=f"QR code for {join_url}",
    )
    ctx = sf.projector(workshop)
    ctx.update(workshop=workshop, join_url=join_url, qr_svg=qr)
    return render(request, "facilitator/projector.html", ctx)


@never_cache
@login_required
def table_detail(request, workshop_id: int, number: int):
    workshop = _own_or_404(request, workshop_id)
    ctx = sf.table_detail(workshop, number)
    if ctx is None:
        raise Http404("No such table")
    return render(request, "facilitator/table.html", ctx)


# ---------------------------------------------------------------- controls

ACTIONS = {}


def action(name: str):
    def register(fn):
        ACTIONS[name] = fn
        return fn

    return register


def _int(value, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"Choose {what}.") from None


def _player(workshop, data) -> Player:
    player = Player.objects.filter(
        workshop=workshop, pk=_int(data.get("player"), "a player")
    ).first()
    if player is None:
        raise InvalidInput("That player is not in this workshop.")
    return player


def _round(workshop, data=None):
    """The current round. A control drawn for a round sends its id: pressed on a
    page left open since that round (another tab, another device), it is refused
    rather than acting on the round that is current now."""
    rnd = current_round(workshop)
    if rnd is None:
        raise WrongPhase("No round has started yet.")
    drawn_for = (data or {}).get("round")
    if drawn_for not in (None, "") and drawn_for != str(rnd.pk):
        pk = _int(drawn_for, "a round")
        earlier = Round.objects.filter(workshop=workshop, pk=pk).first() if 0 < pk < 2**63 else None
        was = f"for {earlier}" if earlier is not None else "for another round"
        raise WrongPhase(
            f"That button was {was}, on a page left open: nothing was done. "
            f"The panel now shows {rnd}."
        )
    return rnd


@action("joining-lock")
def _joining_lock(workshop, data):
    services.workshop_set_joining(workshop_id=workshop.pk, locked=True)
    return "Joining is closed: nobody new can join."


@action("joining-unlock")
def _joining_unlock(workshop, data):
    services.workshop_set_joining(workshop_id=workshop.pk, locked=False)
    return "Joining is open again."


@action("kick")
def _kick(workshop, data):
    player = _player(workshop, data)
    in_game = sf.in_game_now(player)
    services.player_kick(workshop_id=workshop.pk, player_id=player.pk)
    # After the lobby the answer says what became of the seat, read after the removal.
    workshop.refresh_from_db()
    then = sf.removed_then(workshop, player.table_id, in_game=in_game, is_bot=player.is_bot)
    return f"{player.name} was removed from the workshop.{then}"


@action("pin")
def _pin(workshop, data):
    player = _player(workshop, data)
    if player.is_bot:
        raise InvalidInput(f"{player.name} is a bot: no phone plays it, and it has no rejoin PIN.")
    if player.has_left and not player.pin:
        # (Remove took the PIN: a page left open read out "Ana's rejoin PIN is ." A
        # player who left otherwise keeps theirs, and comes back with it.)
        raise InvalidInput(
            f"{player.name} was removed from the workshop: there is no PIN to bring the seat back."
        )
    return (
        f"{player.name}'s rejoin PIN is {player.pin}. On the new phone's join page, under "
        "“Moving to another phone?”, the workshop code, the name and this PIN bring the "
        "seat back; the old phone is then out of the game."
    )


@action("let-in")
def _let_in(workshop, data):
    """Undo a Remove: the new PIN is read out, as "Show the rejoin PIN" reads one."""
    player = _player(workshop, data)
    back = services.player_let_back_in(workshop_id=workshop.pk, player_id=player.pk)
    seat = (
        "takes their seat back from the bot"
        if back.table_id is not None
        else "sits at the table with the fewest players, as a late joiner does"
    )
    return (
        f"{back.name} was let back in. Their new rejoin PIN is {back.pin}. On their phone's "
        "join page, under “Moving to another phone?”, the workshop code, the name and this "
        f"PIN bring them back: {back.name} {seat}."
    )


@action("rename")
def _rename(workshop, data):
    player = _player(workshop, data)
    renamed = services.player_rename(
        workshop_id=workshop.pk, player_id=player.pk, name=data.get("name")
    )
    return f"{player.name} is now called {renamed.name}."


@action("seat-auto")
def _seat_auto(workshop, data):
    seated = services.players_seat_home(workshop_id=workshop.pk)
    # "Tables balanced" only where every table has someone: a class too small for
    # them all is kept together, and "3 players seated, tables balanced. Nobody sits
    # at tables 2 and 3." said balanced of three at one table.
    used = sorted(set(seated.values()))
    if len(used) >= workshop.table_count:
        where = ", tables balanced"
    elif len(used) == 1 and len(seated) > 1:
        where = f", all at table {used[0]}"
    else:
        where = f" at table{'s' if len(used) > 1 else ''} {said_as_list([str(n) for n in used])}"
    return f"{_seated_text(workshop, seated)} seated{where}.{_seating_notes(workshop, seated)}"


@action("seat")
def _seat(workshop, data):
    """Per-player table selects (`home_<player id>`); "" leaves a player to the balancing."""
    assignment = {}
    for key, value in data.items():
        if key.startswith("home_") and value:
            assignment[_int(key[5:], "a player")] = _int(value, "a table")
    seated = services.players_seat_home(workshop_id=workshop.pk, assignment=assignment)
    return (
        f"{_seated_text(workshop, seated)} seated at their home tables."
        f"{_seating_notes(workshop, seated)}"
    )


def _seating_notes(workshop, seated: dict) -> str:
    sizes = Counter(seated.values())
    # Tables chosen past their seats (the automatic seating never does): said, not only
    # the occupancy line's "more than 4 seats" (a review found the answer silent).
    over = [
        f" Table {n} has {_players_text(sizes[n])}, more than its {workshop.seats_per_table} seats."
        for n in range(1, workshop.table_count + 1)
        if sizes[n] > workshop.seats_per_table
    ]
    return "".join(over) + _table_notes(workshop, sizes, empty=True)


SEATING_ADVICE = " Seat more players there, or these at another table."


def _table_notes(workshop, sizes: Counter, *, empty: bool, advice: str = SEATING_ADVICE) -> str:
    """What a seating or a movement leaves a facilitator to know: a table short of a
    game (its players would sit idle; a movement plan marks it, and Apply took it as
    chosen) and, after the seating, tables nobody sits at (the automatic seating
    keeps a class too small for every table together)."""
    kind = sf.kind_of(workshop)
    notes = [
        f" Table {n} has {_players_text(sizes[n])}: {kind.title} needs at least "
        f"{kind.min_seats}, so it gets no game.{advice}"
        for n in range(1, workshop.table_count + 1)
        if kind.short_of_game(sizes[n])
    ]
    nobody = [str(n) for n in range(1, workshop.table_count + 1) if not sizes[n]]
    if empty and nobody:
        notes.append(
            f" Nobody sits at table{'s' if len(nobody) > 1 else ''} {said_as_list(nobody)}."
        )
    return "".join(notes)


def _players_text(n: int) -> str:
    return f"{n} player{'s' if n != 1 else ''}"


def _seated_text(workshop, seated: dict) -> str:
    """'6 players and 2 bots': the bots in their seats are not people seated."""
    bots = Player.objects.filter(workshop=workshop, pk__in=seated, is_bot=True).count()
    people = _players_text(len(seated) - bots)
    return f"{people} and {bots} bot{'s' if bots != 1 else ''}" if bots else people


def _bots_text(n: int, done: str, none: str) -> str:
    return f"{n} bot{'s' if n != 1 else ''} {done}" if n else none


@action("bots")
def _bots(workshop, data):
    created = len(services.bots_fill(workshop_id=workshop.pk))
    return _bots_text(created, "took the empty seats.", "Every seat is taken: no bots needed.")


@action("bots-remove")
def _bots_remove(workshop, data):
    removed = services.bots_remove(workshop_id=workshop.pk)
    return _bots_text(removed, "removed: their seats are free.", "There are no bots to remove.")


ORDER = list(Phase)  # declared in the order a workshop goes through them


def _started_already(workshop, exc: WrongPhase, step: Phase, what: str) -> WrongPhase:
    """A start pressed twice (a second tab, a colleague's laptop, a slow double tap):
    say it is done, not which phases the button is for."""
    workshop.refresh_from_db(fields=["phase"])
    if ORDER.index(workshop.phase) >= ORDER.index(step):
        return WrongPhase(f"{what} has already started: the panel shows where the workshop is now.")
    return exc


@action("start-study")
def _start_study(workshop, data):
    # The panel offers the study once someone has joined; bots alone are no class (a
    # page left open still had the button after the only person was removed). The
    # demo's bot workshops start through the service.
    if (
        workshop.phase == Phase.LOBBY
        and not workshop.players.filter(is_bot=False, has_left=False).exists()
    ):
        raise WrongPhase("Nobody has joined yet: bots alone are no class.")
    try:
        services.workshop_start_study(workshop_id=workshop.pk)
    except WrongPhase as exc:
        raise _started_already(workshop, exc, Phase.STUDY, "Study") from None
    return "Study has started: players read their sheet and practise."


@action("start-home")
def _start_home(workshop, data):
    try:
        services.workshop_start_home(workshop_id=workshop.pk)
    except WrongPhase as exc:
        raise _started_already(
            workshop, exc, Phase.HOME, "Silent play at the home tables"
        ) from None
    return "Silent play at the home tables has started: sheets are hidden."


@action("start-round")
def _start_round(workshop, data):
    if (data or {}).get("round") not in (None, ""):
        # Drawn after a round that is no longer the last (another tab started the
        # next one, which may be over by now): refused, not a round more.
        _round(workshop, data)
    try:
        rnd = services.round_start(workshop_id=workshop.pk)
    except WrongPhase:
        now = current_round(workshop)
        if now is not None and now.kind == RoundKind.SCORED and now.state != RoundState.FINISHED:
            raise WrongPhase(f"{now} has already started.") from None
        raise
    return f"{rnd} has started."


@action("pause")
def _pause(workshop, data):
    rnd = services.round_pause(round_id=_round(workshop, data).pk)
    # "Study is paused.", as the phones say "The facilitator has paused play." (not
    # "Study (practice, rules visible) is paused.").
    return f"{rnd.short_name} is paused."


@action("resume")
def _resume(workshop, data):
    rnd = services.round_resume(round_id=_round(workshop, data).pk)
    return f"{rnd.short_name} continues."


@action("extend")
def _extend(workshop, data):
    rnd = services.round_extend(round_id=_round(workshop, data).pk, seconds=60)
    # The time now left: pressed twice, the second message says so (it read the same).
    left = timing.remaining(rnd.deadline, timezone.now(), rnd.remaining_seconds)
    return f"{rnd.short_name}: one more minute, {clock(left)} left now."


@action("end-now")
def _end_now(workshop, data):
    rnd = _round(workshop, data)
    if not services.round_end_now(round_id=rnd.pk):
        raise WrongPhase(f"{rnd.short_name} is already over.")
    return f"{rnd.short_name} is over."


def _moves(data) -> list[dict] | None:
    """`to_<player id>` selects as movement_edit's moves; None when the form sent none."""
    moves = [
        {"player": _int(key[3:], "a player"), "to": _int(value, "a table")}
        for key, value in data.items()
        if key.startswith("to_")
    ]
    return moves or None


def _scored_round(workshop, data=None):
    rnd = _round(workshop, data)
    if rnd.kind != RoundKind.SCORED:
        raise WrongPhase("Movement is decided after a scored round has ended.")
    return rnd


@action("movement-edit")
def _movement_edit(workshop, data):
    rnd = _scored_round(workshop, data)
    services.movement_edit(round_id=rnd.pk, moves=_moves(data) or [])
    return "Movement plan saved. Apply it when you are ready."


@action("movement-apply")
def _movement_apply(workshop, data):
    rnd = _scored_round(workshop, data)
    with transaction.atomic():  # the edit and the move, or neither
        moves = _moves(data)
        if moves is not None:
            services.movement_edit(round_id=rnd.pk, moves=moves)
        records = services.movement_apply(round_id=rnd.pk)
    sizes = Counter(seated_tables(workshop).values())
    return (
        f"Movement applied: {len(records)} player{'s' if len(records) != 1 else ''} changed tables."
        + _table_notes(workshop, sizes, empty=False, advice="")
    )


@action("debrief")
def _debrief(workshop, data):
    try:
        services.workshop_start_debrief(workshop_id=workshop.pk)
    except WrongPhase as exc:
        raise _started_already(workshop, exc, Phase.DEBRIEF, "The debrief") from None
    return "The tournament is over: time for the debrief."


@login_required
@require_POST
def workshop_action(request, workshop_id: int, name: str):
    workshop = _own_or_404(request, workshop_id)
    handler = ACTIONS.get(name)
    if handler is None:
        raise Http404("No such control")
    try:
        message, ok, status = handler(workshop, request.POST), True, 200
    except ServiceError as exc:
        message, ok, status = exc.message, False, STATUS.get(exc.code, 400)
    if request.htmx and request.headers.get("X-Barnga-Live") == "1":
        # The page's socket is live and brings whatever the control changed, region by
        # region, past any form being edited: the answer is the message alone. (The
        # whole panel was 700 kB at 200 players, drawn twice, and a refused Apply
        # put back the saved plan over the choices on screen.)
        response = render(
            request,
            "facilitator/_message.html",
            {"message": message, "ok": ok, "say": sf.panel_say(workshop)},
            status=status,
        )
        return reswap(retarget(response, "#fac-message"), "outerHTML")
    if request.htmx:
        ctx = _panel_context(request, workshop, message=message, ok=ok)
        return render(request, "facilitator/_panel.html", ctx, status=status)
    if ok:
        messages.success(request, message)
        response = redirect(reverse("workshop", args=[workshop.pk]))
        response.status_code = 303  # see the panel, don't re-POST
        return response
    return _panel_page(request, workshop, message=message, ok=False, status=status)
