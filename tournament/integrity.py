"""Stored games against their logs: after a crash, is what we kept what happened?

A game is its seed plus its append-only action log; everything else stored about
it (seq, state, tricks won, scores, winners, trick records) is derived, by the
game's kind (games.kinds). `game_problems` replays the log from scratch (no
cache) and lists every derived fact that disagrees. The fault tests run it after killing processes and restarting Redis;
`python manage.py check_integrity` runs it on a live database.
"""

from __future__ import annotations

from games.errors import IllegalAction
from tournament import gamestate
from tournament.models import Action, Game, GameState


def game_problems(game: Game) -> list[str]:
    """Every way `game`'s stored rows differ from the replay of its log (empty: consistent)."""
    # Numbers as the facilitator reads them (the export and check_export use them too).
    where = (
        f"game {game.pk} (workshop {game.table.workshop.code}, round {game.round.number}, "
        f"table {game.table.number}, game {game.number})"
    )
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    problems = []
    if seqs != list(range(1, len(seqs) + 1)):
        problems.append(f"{where}: log seqs are not 1..{len(seqs)}: {seqs[:10]}…")
    if game.seq != len(seqs):
        problems.append(f"{where}: seq is {game.seq} but the log has {len(seqs)} actions")
    kind = gamestate.kind_of(game)
    try:
        state = gamestate.replay_log(game)
    except IllegalAction as exc:
        return [*problems, f"{where}: the log does not replay: {exc}"]
    over = kind.is_over(state)
    phase = getattr(state, "phase", "?")
    if over and game.state != GameState.OVER:
        problems.append(f"{where}: the log ends the game but it is stored as {game.state}")
    if game.state == GameState.OVER and not over:
        problems.append(f"{where}: stored as over but the log leaves it in phase {phase}")
    if game.state != GameState.PLAYING:
        outcome = kind.outcome(state)
        if kind.records_tricks and list(game.tricks_won) != list(outcome["scores"]):
            problems.append(f"{where}: tricks_won {game.tricks_won} != replay {outcome['scores']}")
        # Games stored before scores existed have none: their tricks_won is checked above.
        if (game.scores or not kind.records_tricks) and list(game.scores) != list(
            outcome["scores"]
        ):
            problems.append(f"{where}: scores {game.scores} != replay {outcome['scores']}")
        winners = [game.players[s] for s in outcome["winners"]]
        # Winners stored by an earlier rule (3 Tricks: level piles after two passes were
        # a draw) stand: the round's standings and movement were built on them.
        before = kind.winners_before(kind.end_reason(state) or None, outcome) if over else None
        if before is not None and list(game.winners) == [game.players[s] for s in before]:
            winners = list(game.winners)
        if list(game.winners) != winners:
            problems.append(f"{where}: winners {game.winners} != replay {winners}")
    elif game.tricks_won or game.winners or game.scores:
        problems.append(f"{where}: a game in progress has stored results")
    if not kind.records_tricks:
        if game.trick_records.exists():
            problems.append(f"{where}: {kind.title} has no trick records, but some are stored")
        cached = gamestate.load_state(game)
        if cached != state:
            problems.append(f"{where}: the cached state differs from the replay")
        return problems
    stored = [
        (
            t.index,
            t.leader,
            [list(c) for c in t.cards],
            t.winner,
            list(t.verdicts),
            t.table_verdict,
            t.resolution,
            list(t.claims),
        )
        for t in game.trick_records.order_by("index")
    ]
    replayed = [
        (
            i,
            t.leader,
            [[s, c] for s, c in t.cards],
            t.winner,
            list(t.verdicts),
            t.table_verdict,
            t.resolution,
            list(t.claims),
        )
        for i, t in enumerate(state.completed)
    ]
    if stored != replayed:
        problems.append(
            f"{where}: {len(stored)} trick records differ from the replay's {len(replayed)}"
        )
    # The cache the live app reads must hold the same state as the log.
    cached = gamestate.load_state(game)
    if cached != state:
        problems.append(f"{where}: the cached state differs from the replay")
    return problems


def workshop_problems(workshop_id: int | None = None) -> tuple[int, list[str]]:
    """(games checked, problems) for one workshop, or for every game when None."""
    games = (
        Game.objects.all()
        if workshop_id is None
        else Game.objects.filter(table__workshop_id=workshop_id)
    )
    problems: list[str] = []
    count = 0
    for game in games.select_related("table__workshop", "round").order_by("pk"):
        count += 1
        problems.extend(game_problems(game))
    playing = {}
    for game in games.filter(state=GameState.PLAYING).values(
        "pk", "table_id", "table__number", "table__workshop__code"
    ):
        if game["table_id"] in playing:
            problems.append(
                f"table {game['table__number']} of workshop {game['table__workshop__code']}: "
                f"two games in progress ({playing[game['table_id']]} and {game['pk']})"
            )
        playing[game["table_id"]] = game["pk"]
    return count, problems
