"""Seeded bots that play Five Tricks the way a player who learned one sheet would.

A bot sees only what its seat's ``view`` shows, plays a random card from the
view's ``legal`` list (its own sheet in Barnga mode; in referee mode the table's,
which the engine enforces), and claims the winner its own sheet names (the view's
suggested claim). In a dispute, where every claim is public, it may give in to the
most-claimed seat. It never reads the state directly, so it cannot cheat.
"""

from __future__ import annotations

import random

from . import five_tricks as ft

# Chance, each time a dispute's claims change, that a bot adopts the most-claimed
# seat. The app seeds the draw by the game's seq, so a bot that holds out holds out
# until somebody's claim changes or the dispute times out.
GIVE_IN = 0.5


def choose_from_view(v: dict, rng: random.Random) -> dict | None:
    """The bot's action for the seat ``v`` was built for, or None if it has nothing to do."""
    seat = v["seat"]
    if v["phase"] == "play":
        if v["to_act"] != seat or not v["legal"]:
            return None
        return {"type": "play", "seat": seat, "card": rng.choice(v["legal"])}
    if v["phase"] != "claim":
        return None
    if v["my_claim"] is None:
        return {"type": "claim", "seat": seat, "winner": v["suggested_claim"]}
    if v["dispute"]:
        target = _plurality(v["claims"], v["leader"], v["suggested_claim"])
        # Only a bot outside the plurality draws from rng, so the caller may skip
        # asking the others without changing what happens.
        if target != v["my_claim"] and rng.random() < GIVE_IN:
            return {"type": "claim", "seat": seat, "winner": target}
    return None


def _plurality(claims: list, leader: int, fallback: int) -> int:
    """The seat a time-out would award the trick to now."""
    return ft.resolve_timeout(claims, leader, len(claims), fallback)


def choose_action(state: ft.State, seat: int, rng: random.Random) -> dict | None:
    """Like ``choose_from_view``, from the view of ``seat`` only."""
    return choose_from_view(ft.view(state, seat), rng)


def play_game(
    config: ft.Config, seed: int, *, max_dispute_rounds: int = 3
) -> tuple[ft.State, list[dict]]:
    """Play one whole game with bots in every seat; return the final state and the action log.

    Deterministic for a given config and seed. In the claim phase every seat gets a
    turn per round; when a round passes with no action (or after
    ``max_dispute_rounds`` rounds) the log gets a ``timeout`` as the app's timer would.
    """
    rng = random.Random(seed)
    state = ft.new_game(config, seed=seed)
    log: list[dict] = []
    n = config.n_seats
    while state.phase != "over":
        if state.phase == "play":
            action = choose_action(state, state.to_act, rng)
            state, _ = ft.apply(state, action)
            log.append(action)
            continue
        plurality, plurality_seq = None, -1
        for _ in range(max_dispute_rounds):
            acted = False
            for seat in range(n):
                if state.phase != "claim":
                    break
                if state.dispute:
                    if plurality_seq != state.seq:
                        plurality = _plurality(state.claims, state.leader, state.leader)
                        plurality_seq = state.seq
                    if state.claims[seat] == plurality:
                        continue  # with the plurality already: its bot would do nothing
                action = choose_action(state, seat, rng)
                if action is not None:
                    state, _ = ft.apply(state, action)
                    log.append(action)
                    acted = True
            if state.phase != "claim" or not acted:
                break
        if state.phase == "claim":
            action = {"type": "timeout"}
            state, _ = ft.apply(state, action)
            log.append(action)
    return state, log
