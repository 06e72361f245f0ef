"""Stored games against their logs: after a crash, is what we kept what happened?

A game is its seed plus its append-only action log; everything else stored about
it (seq, state, tricks won, winners, trick records) is derived. `game_problems`
replays the log from scratch (no cache) and lists every derived fact that
disagrees. The fault tests run it after killing processes and restarting Redis;
`python manage.py check_integrity` runs it on a live database.
"""

from __future__ import annotations

from games import five_tricks
from tournament import gamestate
from tournament.models import Action, Game, GameState


def game_problems(game: Game) -> list[str]:
    """Every way `game`'s stored rows differ from the replay of its log (empty: consistent)."""
    where = f"game {game.pk} (table {game.table_id}, round {game.round_id}, #{game.number})"
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    problems = []
    if seqs != list(range(1, len(seqs) + 1)):
        problems.append(f"{where}: log seqs are not 1..{len(seqs)}: {seqs[:10]}…")
    if game.seq != len(seqs):
        problems.append(f"{where}: seq is {game.seq} but the log has {len(seqs)} actions")
    try:
        state = gamestate.replay_log(game)
    except five_tricks.IllegalAction as exc:
        return [*problems, f"{where}: the log does not replay: {exc}"]
    over = five_tricks.is_over(state)
    if over and game.state != GameState.OVER:
        problems.append(f"{where}: the log ends the game but it is stored as {game.state}")
    if game.state == GameState.OVER and not over:
        problems.append(f"{where}: stored as over but the log leaves it in phase {state.phase}")
    if game.state != GameState.PLAYING:
        result = five_tricks.result(state)
        if list(game.tricks_won) != list(result["tricks_won"]):
            problems.append(
                f"{where}: tricks_won {game.tricks_won} != replay {result['tricks_won']}"
            )
        winners = [game.players[s] for s in result["winners"]]
        if list(game.winners) != winners:
            problems.append(f"{where}: winners {game.winners} != replay {winners}")
    elif game.tricks_won or game.winners:
        problems.append(f"{where}: a game in progress has stored results")
    stored = [
        (t.index, t.leader, [list(c) for c in t.cards], t.winner, list(t.verdicts),
         t.table_verdict, t.resolution, list(t.claims))
        for t in game.trick_records.order_by("index")
    ]
    replayed = [
        (i, t.leader, [[s, c] for s, c in t.cards], t.winner, list(t.verdicts),
         t.table_verdict, t.resolution, list(t.claims))
        for i, t in enumerate(state.completed)
    ]
    if stored != replayed:
        problems.append(f"{where}: {len(stored)} trick records differ from the replay's {len(replayed)}")
    # The cache the live app reads must hold the same state as the log.
    cached = gamestate.load_state(game)
    if cached != state:
        problems.append(f"{where}: the cached state differs from the replay")
    return problems


def workshop_problems(workshop_id: int | None = None) -> tuple[int, list[str]]:
    """(games checked, problems) for one workshop, or for every game when None."""
    games = Game.objects.all() if workshop_id is None else Game.objects.filter(
        table__workshop_id=workshop_id
    )
    problems: list[str] = []
    count = 0
    for game in games.order_by("pk"):
        count += 1
        problems.extend(game_problems(game))
    playing = {}
    for game in games.filter(state=GameState.PLAYING).values("pk", "table_id"):
        if game["table_id"] in playing:
            problems.append(
                f"table {game['table_id']}: two games in progress "
                f"({playing[game['table_id']]} and {game['pk']})"
            )
        playing[game["table_id"]] = game["pk"]
    return count, problems
