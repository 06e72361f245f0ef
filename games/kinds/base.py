"""What the tournament layer needs from a game: one ``GameKind`` per base game.

The tournament (tournament/) stores a game as its seed, its players and its action
log, and knows nothing of the rules: it asks the game's kind to start a state, apply
an action, say who must act, score it and show it to a seat. Each kind wraps one
pure engine of games/ and adds what a workshop needs around it:

- **rules**: a table's secret rules are a knobs dict. ``rules_from_dict`` turns one
  into an immutable, hashable object with ``to_dict()`` and ``diff(other)`` (the
  knobs that differ), ``presets`` are named rule sets a workshop deals to its tables
  (tournament/sheet_assignment.py keeps neighbouring tables at least two knobs
  apart), and ``sheet`` writes the study sheet from the knobs alone.
- **play**: ``new_state``, ``apply``, ``is_over``, ``outcome`` (winners and a score
  per seat, also for a game cut short by the end of a round), ``to_act`` (the seats
  the engine waits for: bots act for them), ``bot_action``.
- **phone**: ``phone_action`` checks a phone's ``{"action": "act", "move": {...}}``
  and turns it into the engine action of the acting seat (a seat can only ever act
  for itself); ``screen`` builds the template context of one seat's view, and
  ``template`` names the Jinja2 template that shows it (templates/jinja2/play/games/).

Five Tricks keeps its own two messages (``play`` and ``claim``) and derived rows
(tricks, claims, disputes): ``records_tricks`` says so.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from games.errors import IllegalAction

# The words for the knobs a 52-card game shares with Five Tricks (``ace``, ``wins``).
ACE_AND_WINS_WORDS: dict[str, dict[object, str]] = {
    "ace": {"high": "Ace high (above the king)", "low": "Ace low (below the 2)"},
    "wins": {"highest": "Highest wins", "lowest": "Lowest wins"},
}


class MoveError(ValueError):
    """A phone's move that is not even a well-formed action of this game."""


class GameKind:
    key: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # Word for the per-seat score stored with a finished game ("tricks", "points").
    score_label: ClassVar[str] = "points"
    # Each player plays by their home table's sheet (Barnga mode), not only the table's.
    per_seat_rules: ClassVar[bool] = False
    # Five Tricks: the tournament writes trick, claim and dispute rows.
    records_tricks: ClassVar[bool] = False
    # All Fives: in Barnga mode a card its player's own sheet allows may break the
    # table's (a revoke), which the others may call; ``rule_breaks`` lists both (the
    # report's section 4, revokes.csv). In referee mode the log holds neither.
    records_revokes: ClassVar[bool] = False
    # The state a game ended in is kept for its players' next screens (selectors'
    # previous_trick, unheard_end): its last move's trick was never on a screen.
    keeps_final_state: ClassVar[bool] = False
    # The action types a phone may send through ``{"action": "act"}``.
    move_types: ClassVar[tuple[str, ...]] = ()
    # Moves every seat may make at once (All Fives' revoke calls), as Five Tricks'
    # claims: one changes nothing another seat's move depends on, so it leaves the
    # moves decided on the screen before it fresh (services.common.check_version).
    concurrent_moves: ClassVar[frozenset[str]] = frozenset()
    template: ClassVar[str]
    presets: ClassVar[Mapping[str, Any]]
    preset_titles: ClassVar[Mapping[str, str]] = {}
    # A preset's name alone, where its title (above) also lists its knobs in brackets
    # for the facilitator's choice: the report's sheet card, which lists every knob
    # in the summary, names the preset with it, so it says its rules once.
    preset_names: ClassVar[Mapping[str, str]] = {}

    def short_of_game(self, players: int) -> bool:
        """A table with players but too few to deal to: they sit idle until more come
        (the panel's seating notes, the monitor, a movement plan's marks)."""
        return 0 < players < self.min_seats

    # ---- rules
    def rules_from_dict(self, d: object) -> Any:
        raise NotImplementedError

    def default_rules(self) -> dict:
        return self.rules_from_dict({}).to_dict()

    def sheet(self, rules: dict, *, mode: str = "barnga") -> dict:
        """The study sheet: {"title": str, "sections": [{"heading", "text"}]}; ``mode`` is
        the workshop's ("referee": the table's sheet refuses what it forbids)."""
        raise NotImplementedError

    # ---- play
    def new_state(self, *, table_rules: dict, seat_rules: Sequence[dict], mode: str, seed: int):
        raise NotImplementedError

    def apply(self, state, action: dict) -> tuple[Any, list[dict]]:
        raise NotImplementedError

    def is_over(self, state) -> bool:
        raise NotImplementedError

    def outcome(self, state) -> dict:
        """{"winners": [seats], "scores": [per seat]}; on an unfinished game, so far."""
        raise NotImplementedError

    def to_act(self, state) -> list[int]:
        raise NotImplementedError

    def bots_to_ask(self, state) -> list[int]:
        """The seats whose bots the server's clock asks for a move, the awaited seat
        first (it asks the others before it). Usually the seats to act; a game where
        a seat may act unawaited (changing a claim in a dispute) says so here."""
        return self.to_act(state)

    def bot_action(self, state, seat: int, rng: random.Random) -> dict | None:
        raise NotImplementedError

    def in_dispute(self, state) -> bool:
        """Whether the table is arguing it out (a disputed trick): bots then give the
        people time before they move (the server's clock, tournament/timers.py)."""
        return False

    # How a finished game ended, in words said after its result ("won by Ben (three
    # tricks stood in a row)."), by the key end_reason gives; {} where there is one way.
    end_words: ClassVar[Mapping[str, str]] = {}

    def end_reason(self, state) -> str:
        """The key of end_words for a finished game; "" where there is one way."""
        return ""

    def winners_before(self, ended_by: str | None, outcome: Mapping) -> list[int] | None:
        """The winners (seats) an earlier version of this game's rules credited for a
        finished game that ended by `ended_by` and now replays to `outcome`, where a
        documented rule change moved them; None where nothing changed. Stored results
        from before the change are kept (the standings and movement were built on them):
        integrity and check_export accept them with a note."""
        return None

    def how_it_ended(self, ended_by: str | None, winners: Sequence[int]) -> str:
        """The words for how a finished game ended (its stored ``ended_by``), given
        the ids (or seats) of its winners: end_words' by default."""
        return self.end_words.get(ended_by or "", "")

    @staticmethod
    def drawn(players: Sequence[int], winners: Sequence[int]) -> bool:
        """Everyone at the table a co-winner (3 Tricks' level count, a tie of all): a
        draw, which counts as a game won for each (RULES §1)."""
        return len(players) > 1 and set(winners) >= set(players)

    def calls_open(self, state) -> bool:
        """Whether a player may now call a breach of the rules on the last trick (All
        Fives' revoke, until the next lead): bots at a table with people then give
        them time to call before the next card (tournament/timers.py)."""
        return False

    # What makes a trick *judged differently* (the players' own sheets give it to
    # different winners), where not every difference between two sheets can: the
    # debrief report says it beside the count. "" where any can.
    judged_words: ClassVar[str] = ""

    # The facilitator's words for a knob and its values (the custom sheet's fields and
    # choices, the report's reveal): {knob: title}, {knob: {value: words}}.
    knob_titles: ClassVar[Mapping[str, str]] = {}
    knob_words: ClassVar[Mapping[str, Mapping[object, str]]] = {}

    def knob_title(self, knob: str) -> str:
        return self.knob_titles.get(knob) or knob.replace("_", " ").capitalize()

    def knob_applies(self, knob: str, rules: Mapping[str, object]) -> bool:
        """Whether `knob` changes anything under `rules` (a sheet's knobs): the reveal
        neither shows nor marks one that does not (3 Tricks' blocking by rank on a
        sheet that blocks by suit only)."""
        return True

    def knob_label(self, knob: str, value: object) -> str:
        """A knob's value as the reveal and the custom sheet's choices say it."""
        return self.knob_words.get(knob, {}).get(value) or knob_text(value).capitalize()

    def summary(self, rules: dict) -> str:
        """One line of knobs for the facilitator ("hook on, 15 points a trick"): never shown
        to students. The default names each knob of ``rules_from_dict(rules).to_dict()``."""
        return ", ".join(
            f"{k.replace('_', ' ')} {knob_text(v)}"
            for k, v in self.rules_from_dict(rules).to_dict().items()
        )

    def first_dealer(self, state) -> int | None:
        """The seat the engine deals first from, where it chooses one itself (a cut from
        the seed); None where the last seat deals (seat 0, at its left, leads)."""
        return None

    def progress(self, state) -> int:
        """A number that grows as the game goes on (tricks, deals): gestures are tagged with it."""
        return 0

    def stage(self, state) -> str:
        """Where a game of many deals or hands stands, for the facilitator's monitor
        ("deal 8 of 14, blind deal"); "" where it has none to tell (or is over)."""
        return ""

    # ---- the replay command (``python -m games replay``, the game's docs/*.md)
    def replay_input(
        self,
        *,
        table_rules: dict,
        seat_rules: Sequence[dict],
        mode: str,
        seed: int,
        actions: Sequence[dict],
    ) -> dict | None:
        """The replay command's input for the game ``new_state`` starts from these and
        ``actions`` (its logged engine actions, in order) play; None if it has none."""
        return None

    def replay_outcome(self, out: dict) -> dict:
        """``outcome``'s {"winners", "scores"} from the engine's result, which the
        replay command's output carries: ``outcome`` reads the live state's with it."""
        raise NotImplementedError

    # ---- the debrief report
    def rule_breaks(
        self,
        *,
        table_rules: dict,
        seat_rules: Sequence[dict],
        mode: str,
        seed: int,
        actions: Sequence[dict],
    ) -> dict | None:
        """What a game's log shows of the sheets meeting, for a game that records it
        (All Fives' revokes and calls): {"tricks", "clashes", "log"}
        (each revoke and call in the log's order; see All Fives'). None for a game
        that does not, or a log that does not play."""
        return None

    def allowed_under(self, state, action: dict, rules: dict) -> bool | None:
        """Whether ``action``, which this table refused, is legal in ``state`` had the
        table played by ``rules`` (the player's own sheet): the report tells a rule they
        never saw from a slip their own sheet forbids too. None where the kind cannot say."""
        table_rules = self.with_table_rules(state, rules)
        if table_rules is None:
            return None
        try:
            self.apply(table_rules, action)
        except IllegalAction:
            return False
        return True

    def with_table_rules(self, state, rules: dict):
        """``state`` with ``rules`` deciding what is legal for every seat; None if the
        kind cannot swap them (or ``rules`` is no sheet of it). A game with per-seat
        sheets (Five Tricks, All Fives: a config with ``table_rules`` and ``mode``)
        takes them as its table's sheet in referee mode; the others say their own."""
        if not self.per_seat_rules:
            return None
        try:
            table = self.rules_from_dict(rules)
        except (ValueError, TypeError):
            return None
        return replace(state, config=replace(state.config, table_rules=table, mode="referee"))

    # ---- phone
    def phone_action(self, state, seat: int, move: object) -> dict:
        """The engine action for ``seat`` from a phone's move, or MoveError."""
        if not isinstance(move, dict):
            raise MoveError("A move must be an object.")
        kind = move.get("type")
        if kind not in self.move_types:
            raise MoveError("That is not a move of this game.")
        return self.clean_move(state, seat, kind, move)

    def clean_move(self, state, seat: int, kind: str, move: dict) -> dict:
        raise NotImplementedError

    def screen(self, state, seat: int, *, names: Sequence[str]) -> dict:
        """Context for ``template``: what ``seat`` may see, seats named by ``names``."""
        raise NotImplementedError

    def spectator(self, state, *, names: Sequence[str]) -> dict:
        """What the facilitator's monitor shows of a table (everything)."""
        raise NotImplementedError

    def unheard_end(self, state, seat: int, *, names: Sequence[str]) -> dict | None:
        """For a player of a game just ended (``state``: as it ended), what its last
        move did that no screen of that game showed: the move ended the game and the
        phone went on to "Last game" (and the next deal) at once. None: nothing (the
        default; Five Tricks' last trick is selectors' ``previous_trick``)."""
        return None

    def first_trick_taken(self, state) -> bool:
        """Whether a game in progress has had a trick taken: until then the last
        game's end (``unheard_end``, ``previous_trick``) stays on its players' screens."""
        return True

    def new_hand(self, state, *, names: Sequence[str]) -> dict | None:
        """For a student watching the game (tournament.selectors.watching): once a hand
        or deal has ended and the next one's first card is not down yet, how it ended
        and what began, from what anyone at the table saw (never a hand's cards); None
        otherwise, or in a game of one hand.

        ``ended`` and ``next`` name them in the phone's words ("Hand 1", "Deal 2 of
        14"), ``trick`` and ``taker`` the last trick of the one ended (None without
        one), ``dealer`` the next one's dealer, ``cards`` its cards each (None where
        the phone does not say it), ``points`` the ended one's rows of the phone's
        "scored" line ({"name", "points", "penalty", "score"}; None where not said),
        ``scored`` the ended deal's bids made or missed, as 7Up7Down's "Deal 1 scored"
        line has them without its points ({"name", "bid", "tricks", "made"}; None where
        not said), ``trump`` the next
        one's trump suit in words (None where not said)."""
        return None

    def bids(self, state, *, names: Sequence[str]) -> dict | None:
        """For a student watching the game (tournament.selectors.watching): the bids of
        the deal in play, public at the table as each is made (every seat's phone shows
        them); None in a game without bids.

        ``seats``: each seat's {"name", "bid"} in seat order, ``bid`` None until made;
        ``latest``: the bid just made ({"name", "bid"}), while the bidding goes on and
        until the deal's first card (the last bid starts the play), else None."""
        return None


def knob_text(value: object) -> str:
    """A knob's value in words for the facilitator's summaries."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")


def clean_cards(value: object, *, most: int = 13) -> list[str]:
    """A list of card codes from a phone (upper-cased); MoveError if not one."""
    if not isinstance(value, list) or not 1 <= len(value) <= most:
        raise MoveError("Choose cards from your hand.")
    cards = []
    for c in value:
        if not isinstance(c, str) or not 2 <= len(c.strip()) <= 3:
            raise MoveError("Choose cards from your hand.")
        cards.append(c.strip().upper())
    return cards


def clean_card(value: object) -> str:
    if not isinstance(value, str) or not 2 <= len(value.strip()) <= 3:
        raise MoveError("Choose a card from your hand.")
    return value.strip().upper()
